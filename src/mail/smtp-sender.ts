// The one SMTP module every mail goes through (`digest send`, `digest email --send`, the outbox's confirmations and
// welcomes): pooled connections (see smtp-pool.ts), optional DKIM signing that covers the List-Unsubscribe headers,
// and a verdict on every failure. Its settings come from one place (mail/settings.ts mailTransportSettings).
import type { OutgoingMail } from './edition-mail.js';
import { createSmtpPool, type DkimKey, type SmtpPoolSettings } from './smtp-pool.js';

export { HandOverRefusedError } from './smtp-pool.js';

/** The pool's settings; DKIM's signed header list is the send's own (DKIM_HEADERS). */
export type SmtpSenderSettings = Omit<SmtpPoolSettings, 'dkim'> & {
  dkim?: DkimKey;
  /** publish.identity.replyTo: the Reply-To of every mail that has none of its own. */
  replyTo?: string;
};

export interface SentMail {
  /** The server's answer, e.g. "250 2.0.0 Ok: queued as 4F2A1". */
  response: string;
  messageId: string;
  /** Recipients the server refused (a mail to several is sent when at least one was accepted). */
  rejected: string[];
}

/** The part of a transport the send uses, so a test can hand in any SMTP client. */
export interface MailSender {
  /**
   * Sends one mail. `handOver` is awaited right before the mail's terminating dot; when it answers false the mail
   * is not finished (nothing is delivered) and the send rejects with HandOverRefusedError.
   */
  send(mail: OutgoingMail, handOver?: () => Promise<boolean>): Promise<SentMail>;
  close(): void;
}

// nodemailer's default list (RFC 6376 §5.4) plus List-Unsubscribe-Post: Gmail wants the one-click pair signed.
const DKIM_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:' +
  'Content-ID:Content-Description:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:' +
  'List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive';

export function createSmtpSender(settings: SmtpSenderSettings): MailSender {
  const { dkim, replyTo, ...connections } = settings;
  const pool = createSmtpPool({
    ...connections,
    ...(dkim ? { dkim: { ...dkim, headerFieldNames: DKIM_HEADERS } } : {}),
  });
  return {
    async send(mail, handOver) {
      // A mail built as bytes goes as it is; the string is made only to add a Reply-To.
      const raw = replyTo ? withReplyTo(mail.raw, replyTo) : (mail.bytes ?? mail.raw);
      const { response, rejected } = await pool.send({ envelope: mail.envelope, raw }, handOver);
      return { response, messageId: mail.messageId, rejected };
    },
    close: () => pool.close(),
  };
}

/**
 * The message with a Reply-To header first, unless its header block has one: every mail the project composes
 * (editions, personal mails, confirmations, notices) passes here, so the setting cannot be missed by one of them. It
 * goes in before DKIM signs the message (smtp-pool.ts), so the signature covers it.
 */
export function withReplyTo(raw: string, replyTo: string): string {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  if (/^reply-to:/im.test(head)) return raw;
  return `Reply-To: ${replyTo}\r\n${raw}`;
}

export type FailureKind =
  /** Try again later: 4xx, connection refused or dropped, timeout. */
  | 'temporary'
  /** The server refused this reader's mail for good (5xx): counts toward the bounce limit. */
  | 'permanent'
  /** Nothing can be sent with these settings (login or sender refused): the send stops. */
  | 'fatal';

export interface FailureVerdict {
  kind: FailureKind;
  /** One line for the log and the send_log row. */
  response: string;
}

export function judgeFailure(error: unknown): FailureVerdict {
  const failure = (error ?? {}) as {
    code?: string;
    responseCode?: number;
    response?: string;
    command?: string;
  };
  const message = error instanceof Error ? error.message : String(error);
  const response = (failure.response || message).replace(/\s+/g, ' ').trim().slice(0, 500);
  const status = failure.responseCode ?? 0;
  if (failure.code === 'EAUTH' || (status >= 500 && /^MAIL\b/i.test(failure.command ?? ''))) {
    return { kind: 'fatal', response };
  }
  if (status >= 500 && status < 600) return { kind: 'permanent', response };
  return { kind: 'temporary', response };
}
