// One edition as a mail per subscriber. The HTML (MJML) and text parts are rendered once with a placeholder token
// in the unsubscribe link; each reader's mail swaps in their own signed token, so 10,000 readers cost one render.
import { randomBytes } from 'node:crypto';
import { encodeWords } from 'nodemailer/lib/mime-funcs';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../publish/_html.js';
import { renderEmailHtml } from '../publish/email-html.js';
import { emailSubject } from '../publish/email-message.js';
import { renderEmailText } from '../publish/email-text.js';
import type { ImageMap } from '../publish/item-images.js';
import { isHeaderSafe, normaliseAddress } from '../subscribers/address.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from '../subscribers/list-unsubscribe.js';

export interface EditionMailOptions {
  from: string;
  /** The public base URL: the one-click unsubscribe endpoint and "view in your browser" live under it. */
  baseUrl: string;
  /** The List-Unsubscribe mailto target (optional). */
  unsubscribeMailto?: string;
  images?: ImageMap;
}

/** A rendered edition waiting for its readers' tokens. */
export interface EditionMail {
  edition: string;
  subject: string;
  from: string;
  /** The bare sender address for the SMTP envelope (MAIL FROM). */
  envelopeFrom: string;
  build(recipient: { subscriberId: number; address: string; token: string }): OutgoingMail;
}

/** What goes to nodemailer for one reader: the whole RFC 5322 message, and its envelope. */
export interface OutgoingMail {
  messageId: string;
  raw: string;
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
  if (!isHeaderSafe(options.from)) throw new Error('publish.email.from must be one line');
  const envelopeFrom = /<([^>]+)>\s*$/.exec(options.from)?.[1] ?? options.from;
  const sender = normaliseAddress(envelopeFrom);
  if (!sender.ok) throw new Error(`publish.email.from has no valid address (${options.from})`);
  // A token never contains this (tokens are "<letter>.<base64url>.<base36>.<base64url>"), and it survives HTML
  // escaping and URL serialisation unchanged.
  const placeholder = `TOKEN${randomBytes(12).toString('hex')}`;
  const pageUrl = absoluteUrl(options.baseUrl, `${edition.date}/`);
  const renderOptions = {
    pageUrl,
    unsubscribeUrl: unsubscribeUrl(options.baseUrl, placeholder),
    siteUrl: options.baseUrl,
    ...(options.images ? { images: options.images } : {}),
  };
  const [htmlParts, textParts] = [
    (await renderEmailHtml(edition, renderOptions)).split(placeholder),
    renderEmailText(edition, renderOptions).split(placeholder),
  ];
  if (htmlParts.length < 2 || textParts.length < 2) {
    throw new Error('the email template lost its unsubscribe link');
  }
  const domain = new URL(options.baseUrl).hostname.replace(/[^a-z0-9.-]/gi, '') || 'localhost';
  const subject = emailSubject(edition);
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
    build({ subscriberId, address, token }) {
      // The address came from the database; it is checked again here because it becomes a header line.
      const checked = normaliseAddress(address);
      if (!checked.ok || checked.address !== address) {
        throw new InvalidRecipientError(`not a valid address for a mail header: ${JSON.stringify(address)}`);
      }
      const messageId = `<edition-${edition.date}.${subscriberId}@${domain}>`;
      const unsubscribe = listUnsubscribeHeaders({
        baseUrl: options.baseUrl,
        token,
        ...(options.unsubscribeMailto ? { mailto: options.unsubscribeMailto } : {}),
      });
      const headers = [
        ...fixedHeaders,
        `To: ${address}`,
        `Date: ${new Date().toUTCString().replace(/GMT$/, '+0000')}`,
        `Message-ID: ${messageId}`,
        // One target per line: each stays far below the 998-character limit whatever the token's length.
        `List-Unsubscribe: ${(unsubscribe['List-Unsubscribe'] ?? '').replace(/>, </g, '>,\r\n <')}`,
        `List-Unsubscribe-Post: ${unsubscribe['List-Unsubscribe-Post']}`,
      ];
      const raw = [
        headers.join('\r\n'),
        '',
        part(boundary, 'text/plain', textParts.join(token)),
        part(boundary, 'text/html', htmlParts.join(token)),
        `--${boundary}--`,
        '',
      ].join('\r\n');
      return { messageId, raw, envelope: { from: sender.address, to: [address] } };
    },
  };
}

/** One base64 part (76-character lines): native encoding, safe for any content and line length. */
function part(boundary: string, type: string, content: string): string {
  const encoded = Buffer.from(content.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return [
    `--${boundary}`,
    `Content-Type: ${type}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    lines.join('\r\n'),
  ].join('\r\n');
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
