// edition.eml: a complete RFC 5322 message (multipart/alternative) built by nodemailer's composer. It is sent (by
// `digest email --send`) through the one SMTP module, mail/smtp-sender.ts.
import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { formatLongDate } from '../core/dates.js';
import { PublishError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { safeUrl } from '../core/urls.js';
import { DEFAULT_UNSUBSCRIBE_URL } from './email-html.js';

export interface MessageOptions {
  from: string;
  to: string;
  html: string;
  text: string;
  unsubscribeUrl?: string;
  /** Domain for the Message-ID; the site's host when a base URL is known. */
  messageIdDomain?: string;
}

export function emailSubject(edition: Edition): string {
  return `${edition.name}: ${edition.title} (${formatLongDate(edition.date)})`.replace(/[\r\n]+/g, ' ');
}

/**
 * Message-ID, Date and MIME boundaries come from the edition, not the clock or a random source, so writing the
 * same edition twice gives the same bytes.
 */
export async function renderEditionEml(edition: Edition, options: MessageOptions): Promise<string> {
  const unsubscribe = safeUrl(options.unsubscribeUrl ?? DEFAULT_UNSUBSCRIBE_URL);
  if (!unsubscribe)
    throw new PublishError('The unsubscribe URL must be an http(s) URL (publish.email.unsubscribeUrl).');
  const domain =
    (options.messageIdDomain ?? 'llm-news-digest.invalid').replace(/[^a-z0-9.-]/gi, '') || 'localhost';
  const seed = createHash('sha256').update(`${edition.date}\n${edition.title}`).digest('hex');
  const composer = new MailComposer({
    from: options.from,
    to: options.to,
    subject: emailSubject(edition),
    date: new Date(`${edition.date}T00:00:00Z`),
    messageId: `<edition-${edition.date}@${domain}>`,
    // RFC 5322 lines end in CRLF; the composer keeps the content's own line ends, so give it CRLF.
    text: crlf(options.text),
    html: crlf(options.html),
    textEncoding: 'quoted-printable',
    baseBoundary: seed.slice(0, 16),
    headers: {
      // RFC 2369 / 8058: a placeholder URL the sending tool replaces per subscriber, and one-click unsubscribe.
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
  const message = await composer.compile().build();
  return message.toString('utf8');
}

function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
