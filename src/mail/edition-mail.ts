// One edition as a mail per subscriber. The HTML and text parts are rendered once with placeholder tokens
// in the unsubscribe and preferences links; each reader's mail swaps in their own signed tokens, so 10,000 readers
// cost one render (a personal mail is one such render per distinct variant: see personal-mail.ts).

import { randomBytes } from 'node:crypto';
import { encodeWords } from 'nodemailer/lib/mime-funcs';
import { envelopeSender, normaliseAddress } from '../core/email-address.js';
import { preferencesUrl } from '../core/reader-choices.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import { type EmailOptions, renderEmailHtml } from '../publish/email-html.js';
import { emailSubject } from '../publish/email-message.js';
import { renderEmailText } from '../publish/email-text.js';
import type { ImageMap } from '../publish/item-images.js';
import type { SenderOptions } from '../publish/sender-identity.js';
import { longDateIn } from '../publish/ui-text.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from './list-unsubscribe.js';
import { fillable, multipartMessage } from './mail-parts.js';

export interface EditionMailOptions extends SenderOptions {
  from: string;
  /** The public base URL: the one-click unsubscribe endpoint and "view in your browser" live under it. */
  baseUrl: string;
  /** The List-Unsubscribe mailto target (optional). */
  unsubscribeMailto?: string;
  images?: ImageMap;
  /** A personal variant: its language, the items named but not shown, a note; and the edition page's URL. */
  variant?: Pick<EmailOptions, 'language' | 'alsoInEdition' | 'note'> & {
    pageUrl?: string;
    /** Put before the subject: "[Test] " marks an editor's test mail. */
    subjectPrefix?: string;
  };
  /** Put the reader's "your edition" link (a signed 'preferences' token) in the mail. */
  preferencesLink?: boolean;
  /** The clock each mail's Date header reads (the use case passes its clock port). */
  now: () => Date;
  /** Counted links (analytics): each item's /r/ link; per reader, each reader's own part appended (`clickTag`). */
  countedLinks?: CountedLinks | undefined;
}

export interface CountedLinks {
  itemUrl(itemKey: string): string;
  perReader: boolean;
}

/** A rendered edition waiting for its readers' tokens. */
export interface EditionMail {
  edition: string;
  subject: string;
  from: string;
  /** The bare sender address for the SMTP envelope (MAIL FROM). */
  envelopeFrom: string;
  build(recipient: {
    subscriberId: number;
    address: string;
    token: string;
    /** The reader's signed 'preferences' token (with `preferencesLink`). */
    preferencesToken?: string;
    /** Per-reader counted links: the reader's signed part of each /r/ link ('' when they turned counting off). */
    clickTag?: string | undefined;
  }): OutgoingMail;
}

/** What goes to nodemailer for one reader: the whole RFC 5322 message, and its envelope. */
export interface OutgoingMail {
  messageId: string;
  raw: string;
  /**
   * The same message as UTF-8 bytes, when it was built as bytes (a send's personal mails): sent as they are, with
   * no string of the whole message made per reader.
   */
  bytes?: Buffer;
  /**
   * Gives `bytes` back for a later mail: called once the server has accepted the whole message, after which neither
   * `bytes` nor `raw` is read again. A mail never released is simply collected.
   */
  release?: () => void;
  envelope: { from: string; to: string[] };
}

/** An address that could not be put in a header: the row fails for good, nothing is sent. */
export class InvalidRecipientError extends Error {
  override name = 'InvalidRecipientError';
}

export async function prepareEditionMail(
  edition: Edition,
  options: EditionMailOptions,
): Promise<EditionMail> {
  const sender = { address: envelopeSender(options.from) };
  const { fill, language } = await cutTemplates(edition, options);
  const domain = new URL(options.baseUrl).hostname.replace(/[^a-z0-9.-]/gi, '') || 'localhost';
  const subject = `${options.variant?.subjectPrefix ?? ''}${
    language
      ? `${edition.name}: ${edition.title} (${longDateIn(edition.date, language)})`.replace(/[\r\n]+/g, ' ')
      : emailSubject(edition)
  }`;
  // The message is assembled here rather than by nodemailer's composer: its streams cost ~5 ms a mail, this ~0.3.
  const boundary = `----=_digest_${randomBytes(12).toString('hex')}`;
  const fixedHeaders = [
    `From: ${encodeFrom(options.from)}`,
    `Subject: ${encodeWords(subject, 'Q', 52)}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  return {
    edition: edition.date,
    subject,
    from: options.from,
    envelopeFrom: sender.address,
    build({ subscriberId, address, token, preferencesToken = '', clickTag = '' }) {
      headerRecipient(address);
      const messageId = `<edition-${edition.date}.${subscriberId}@${domain}>`;
      const unsubscribe = listUnsubscribeHeaders({
        baseUrl: options.baseUrl,
        token,
        ...(options.unsubscribeMailto ? { mailto: options.unsubscribeMailto } : {}),
      });
      const headers = [
        ...fixedHeaders,
        `To: ${address}`,
        `Date: ${options.now().toUTCString().replace(/GMT$/, '+0000')}`,
        `Message-ID: ${messageId}`,
        // One target per line: each stays far below the 998-character limit whatever the token's length.
        `List-Unsubscribe: ${(unsubscribe['List-Unsubscribe'] ?? '').replace(/>, </g, '>,\r\n <')}`,
        `List-Unsubscribe-Post: ${unsubscribe['List-Unsubscribe-Post']}`,
      ];
      const filled = fill([token, preferencesToken, clickTag]);
      const { bytes, release } = multipartMessage(headers.join('\r\n'), boundary, [
        { type: 'text/plain', content: filled.text },
        { type: 'text/html', content: filled.html },
      ]);
      return {
        messageId,
        bytes,
        release,
        get raw() {
          return bytes.toString('utf8');
        },
        envelope: { from: sender.address, to: [address] },
      };
    },
  };
}

/** The address as a header line may carry it, or InvalidRecipientError (the row then fails for good). */
export function headerRecipient(address: string): string {
  // The address came from the database; it is checked again here because it becomes a header line.
  const checked = normaliseAddress(address);
  if (!checked.ok || checked.address !== address) {
    throw new InvalidRecipientError(`not a valid address for a mail header: ${JSON.stringify(address)}`);
  }
  return address;
}

/**
 * The HTML and text parts rendered once with placeholders where each reader's links go (unsubscribe, preferences,
 * and per-reader counted links), cut there; `fill` makes one reader's parts from [unsubscribe, preferences, clicks].
 */
async function cutTemplates(edition: Edition, options: EditionMailOptions) {
  // A token never contains this (tokens are "<letter>.<base64url>.<base36>.<base64url>"), and it survives HTML
  // escaping and URL serialisation unchanged.
  const placeholder = `TOKEN${randomBytes(12).toString('hex')}`;
  const preferencesPlaceholder = `PREFS${randomBytes(12).toString('hex')}`;
  const readerPlaceholder = `READER${randomBytes(12).toString('hex')}`;
  const counted = options.countedLinks;
  const { pageUrl: variantPage, ...variant } = options.variant ?? {};
  const pageUrl = variantPage ?? absoluteUrl(options.baseUrl, `${edition.date}/`);
  const renderOptions = {
    pageUrl,
    unsubscribeUrl: unsubscribeUrl(options.baseUrl, placeholder),
    siteUrl: options.baseUrl,
    ...(options.images ? { images: options.images } : {}),
    ...(options.sender ? { sender: options.sender } : {}),
    ...(options.preferencesLink
      ? { preferencesUrl: preferencesUrl(options.baseUrl, preferencesPlaceholder) }
      : {}),
    ...variant,
  };
  const countedLink = !counted
    ? undefined
    : counted.perReader
      ? (key: string) => `${counted.itemUrl(key)}${readerPlaceholder}`
      : counted.itemUrl;
  const slots = [placeholder, ...(options.preferencesLink ? [preferencesPlaceholder] : [])];
  const html = await renderEmailHtml(edition, renderOptions, countedLink);
  // A mail whose items have no link of their own has no reader part to fill.
  const readerSlot = html.includes(readerPlaceholder);
  if (readerSlot) slots.push(readerPlaceholder);
  const values = (token: string, preferences: string, reader: string) => [
    token,
    ...(options.preferencesLink ? [preferences] : []),
    ...(readerSlot ? [reader] : []),
  ];
  const htmlTemplate = fillable(html, slots);
  const textTemplate = fillable(renderEmailText(edition, renderOptions, countedLink), slots);
  return {
    language: variant.language,
    fill: ([token, preferences, reader]: [string, string, string]) => {
      const filled = values(token, preferences, reader);
      return { html: htmlTemplate(filled), text: textTemplate(filled) };
    },
  };
}

/** `Name <address>` with the name as an encoded word when it is not plain ASCII. */
function encodeFrom(from: string): string {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  if (!match) return from.trim();
  const name = match[1]!.replace(/^"|"$/g, '');
  if (!name) return `<${match[2]}>`;
  const encoded = encodeWords(name, 'Q', 52);
  return encoded === name && /^[\w .-]+$/.test(name)
    ? `${name} <${match[2]}>`
    : `${encoded === name ? `"${name.replace(/["\\]/g, '')}"` : encoded} <${match[2]}>`;
}
