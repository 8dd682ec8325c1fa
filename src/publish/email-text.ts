// The plain-text alternative of the email: the same edition, readable in any client and by screen readers.
import { formatLongDate } from '../core/dates.js';
import type { Edition, EditionItem } from '../core/types.js';
import { authorLine, plural, safeUrl } from './_html.js';
import { DEFAULT_UNSUBSCRIBE_URL, type EmailOptions } from './email-html.js';

const WIDTH = 72;

/** Control characters (except none we need) and bidi overrides could disguise text in a terminal or client. */
function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function wrap(text: string, indent = '', width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of clean(text).split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function renderEmailText(edition: Edition, options: EmailOptions = {}): string {
  const pageUrl = safeUrl(options.pageUrl);
  const unsubscribe = safeUrl(options.unsubscribeUrl ?? DEFAULT_UNSUBSCRIBE_URL);
  const title = clean(edition.title);
  const lines = [
    `${clean(edition.name)} · ${formatLongDate(edition.date)} · ${plural(edition.items.length, 'paper')}`,
    '',
    title,
    '='.repeat(Math.min(title.length, WIDTH)),
    '',
    ...wrap(edition.intro),
    '',
  ];
  if (pageUrl) lines.push(`Read it on the web: ${pageUrl}`, '');
  edition.items.forEach((item, index) => {
    lines.push(...renderItem(item, index + 1), '');
  });
  lines.push('--', `You receive ${clean(edition.name)} because you subscribed.`);
  if (unsubscribe) lines.push(`Unsubscribe: ${unsubscribe}`);
  return `${lines.join('\n')}\n`;
}

function renderItem(item: EditionItem, number: number): string[] {
  const indent = '   ';
  const url = safeUrl(item.url);
  const footer: string[] = [];
  if (item.citations !== null && item.citations !== undefined)
    footer.push(plural(item.citations, 'citation'));
  footer.push(`via ${clean(item.source)}`);
  if (item.arxivId) footer.push(`arXiv:${clean(item.arxivId)}`);
  const heading = wrap(`${number}. ${item.title}`);
  return [
    ...heading.map((line, index) => (index === 0 ? line : indent + line)),
    ...(url ? [`${indent}${url}`] : []),
    ...wrap(`${item.level}${item.authors.length ? ` · ${authorLine(item.authors)}` : ''}`, indent),
    '',
    ...wrap(item.summary, indent),
    '',
    `${indent}Takeaways:`,
    ...item.takeaways.flatMap((line) =>
      wrap(line, `${indent}  `).map((part, index) => (index === 0 ? `${indent}- ${part.trimStart()}` : part)),
    ),
    '',
    ...wrap(footer.join(' · '), indent),
  ];
}
