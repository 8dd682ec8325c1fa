// The correction notice `digest send --correction` mails to readers who were sent an earlier revision of an edition:
// what changed (the correction's reason) and links to the corrected edition and to the revision before it. A short
// text part and a simple HTML part through the escaping template; composed per reader in mail/correction-mail.ts.
import { formatLongDate } from '../core/dates.js';
import { personalMailHtml, type SenderOptions, senderTextLines } from './sender-identity.js';
import { html } from './template.js';

export interface CorrectionNoticeInput extends SenderOptions {
  /** The newsletter's name (the edition's `name`). */
  siteName: string;
  /** The edition's week (YYYY-MM-DD) and title. */
  date: string;
  title: string;
  /** The revision the correction published, when (ISO 8601) and why. */
  revision: number;
  correctedAt: string;
  reason: string;
  /** The revision the reader had: the one before, or an earlier one when they missed a notice in between. */
  hadRevision: number;
  /** Absolute URLs: the corrected edition's page, the page of the revision the reader had, and the one-click unsubscribe. */
  links: { corrected: string; earlier: string; unsubscribe: string };
}

export interface CorrectionNotice {
  subject: string;
  text: string;
  html: string;
}

export function renderCorrectionNotice(input: CorrectionNoticeInput): CorrectionNotice {
  const week = formatLongDate(input.date);
  const on = formatLongDate(input.correctedAt.slice(0, 10));
  const subject = oneLine(`Correction: ${input.siteName} of ${week} (${input.title})`);
  const { corrected, earlier, unsubscribe } = input.links;
  const text = [
    `The edition of ${week} of ${input.siteName}, "${oneLine(input.title)}", which was mailed to you, was corrected on ${on}.`,
    '',
    `What changed: ${oneLine(input.reason)}`,
    '',
    `The corrected edition: ${corrected}`,
    `The edition as it was before (revision ${input.hadRevision}): ${earlier}`,
    '',
    `Unsubscribe: ${unsubscribe}`,
    ...senderTextLines(input.sender),
    '',
  ].join('\n');
  const body = personalMailHtml(
    { subject, siteName: input.siteName, sender: input.sender },
    html`<p>The edition of ${week} of ${input.siteName}, “${input.title}”, which was mailed to you, was corrected on ${on}.</p>
<p><strong>What changed:</strong> ${input.reason}</p>
<p><a href="${corrected}">Read the corrected edition</a> · <a href="${earlier}">the edition as it was before</a> (revision ${input.hadRevision})</p>
<p style="color:#555"><a href="${unsubscribe}">Unsubscribe</a></p>
`,
  );
  return { subject, text, html: body };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
