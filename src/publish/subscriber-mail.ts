// The confirmation and welcome mails: a short text part and a simple HTML part, composed as one RFC 5322 message.
import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { personalMailHtml, type SenderIdentity, senderTextLines } from './sender-identity.js';
import { html } from './template.js';

export interface SubscriberMailInput {
  siteName: string;
  /** The From header as configured (publish.email.from). */
  from: string;
  /** A normalised address (no display name, nothing that could break a header line). */
  to: string;
  date: Date;
  /** Host for the Message-ID. */
  messageIdDomain: string;
  /** The Message-ID's left part (e.g. the outbox row's, so a mail sent twice would show as the same one). */
  messageId?: string;
  /** Who sends it (publish.identity): the footer and postal address close every mail. */
  sender?: SenderIdentity;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  /** The whole message, ready for Mailer.sendMail({ raw }). */
  raw: string;
}

export async function renderConfirmationMail(
  input: SubscriberMailInput & {
    confirmUrl: string;
    siteUrl: string;
    validHours: number;
    /** The reader's signed preferences link: the page works before confirming too. */
    preferencesUrl?: string;
  },
): Promise<ComposedMail> {
  const subject = `Confirm your subscription to ${input.siteName}`;
  const text = [
    `Someone, hopefully you, asked to receive ${input.siteName} at ${input.to}.`,
    '',
    `Confirm with this link (it works for ${input.validHours} hours):`,
    input.confirmUrl,
    '',
    'If it was not you, ignore this mail: nothing will be sent to you.',
    '',
    ...(input.preferencesUrl
      ? [`Choose your edition (language, topics, levels): ${input.preferencesUrl}`, '']
      : []),
    `${input.siteName} · ${input.siteUrl}`,
    ...senderTextLines(input.sender),
    '',
  ].join('\n');
  const body = personalMailHtml(
    { subject, siteName: input.siteName, sender: input.sender },
    html`<p>Someone, hopefully you, asked to receive ${input.siteName} at ${input.to}.</p>
<p><a href="${input.confirmUrl}" style="display:inline-block;padding:.6rem 1.2rem;background:${input.sender?.accentColor ?? '#0b57b0'};color:#fff;border-radius:6px;text-decoration:none">Confirm my subscription</a></p>
<p>The link works for ${input.validHours} hours. If it was not you, ignore this mail: nothing will be sent to you.</p>
${
  input.preferencesUrl
    ? html`<p><a href="${input.preferencesUrl}">Choose your edition</a> (language, topics, levels).</p>
`
    : null
}<p style="color:#555">${input.siteName} · <a href="${input.siteUrl}">${input.siteUrl}</a></p>
`,
  );
  return compose({ input, subject, text, body, headers: {} });
}

export async function renderWelcomeMail(
  input: SubscriberMailInput & {
    siteUrl: string;
    unsubscribeUrl: string;
    /** The reader's signed preferences link ("your edition"). */
    preferencesUrl: string;
    /** List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), as listUnsubscribeHeaders() makes them. */
    listUnsubscribe: Record<string, string>;
  },
): Promise<ComposedMail> {
  const subject = `Welcome to ${input.siteName}`;
  const text = [
    `Welcome! ${input.siteName} now comes to ${input.to} once a week.`,
    '',
    `Read past editions: ${input.siteUrl}`,
    '',
    `Choose your edition (language, topics, levels): ${input.preferencesUrl}`,
    '',
    `Unsubscribe at any time: ${input.unsubscribeUrl}`,
    ...senderTextLines(input.sender),
    '',
  ].join('\n');
  const body = personalMailHtml(
    { subject, siteName: input.siteName, sender: input.sender },
    html`<p>Welcome! ${input.siteName} now comes to ${input.to} once a week.</p>
<p>Past editions are on <a href="${input.siteUrl}">${input.siteUrl}</a>.</p>
<p><a href="${input.preferencesUrl}">Choose your edition</a>: language, topics and levels.</p>
<p style="color:#555"><a href="${input.unsubscribeUrl}">Unsubscribe</a> at any time.</p>
`,
  );
  return compose({ input, subject, text, body, headers: input.listUnsubscribe });
}

async function compose({
  input,
  subject,
  text,
  body,
  headers,
}: {
  input: SubscriberMailInput;
  subject: string;
  text: string;
  body: string;
  headers: Record<string, string>;
}): Promise<ComposedMail> {
  const domain = input.messageIdDomain.replace(/[^a-z0-9.-]/gi, '') || 'localhost';
  const composer = new MailComposer({
    from: input.from,
    to: input.to,
    subject,
    date: input.date,
    messageId: `<${input.messageId ?? randomUUID()}@${domain}>`,
    text: crlf(text),
    html: crlf(body),
    textEncoding: 'quoted-printable',
    headers,
  });
  const raw = (await composer.compile().build()).toString('utf8');
  return { subject, text, html: body, raw };
}

function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
