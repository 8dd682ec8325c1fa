// The plain-text alternative of the email: the same edition, readable in any client and by screen readers.
// Plain text needs no escaping; the item view already turned control characters and bidi overrides into spaces.
import type { Edition, Level } from '../core/types.js';
import { safeUrl } from '../core/urls.js';
import { type CountedLink, DEFAULT_UNSUBSCRIBE_URL, type EmailOptions } from './email-html.js';
import { type ItemView, plainText, toEditionView } from './item-view.js';
import { senderTextLines } from './sender-identity.js';
import { longDateIn, type UiText, uiText } from './ui-text.js';

const WIDTH = 72;

export function wrap(text: string, indent = '', width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of plainText(text).split(' ')) {
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

export function renderEmailText(
  edition: Edition,
  options: EmailOptions = {},
  countedLink?: CountedLink,
): string {
  const pageUrl = safeUrl(options.pageUrl);
  const unsubscribe = safeUrl(options.unsubscribeUrl ?? DEFAULT_UNSUBSCRIBE_URL);
  const view = toEditionView(edition, { countedLink });
  const words = uiText(options.language);
  const also = options.alsoInEdition ?? [];
  const [longDate, count] = options.language
    ? [longDateIn(edition.date, options.language), words.papers(edition.items.length + also.length)]
    : [view.longDate, view.count];
  const lines = [
    `${view.name} · ${longDate} · ${count}`,
    '',
    view.title,
    '='.repeat(Math.min(view.title.length, WIDTH)),
    '',
    ...wrap(view.intro),
    '',
  ];
  if (pageUrl) lines.push(`${words.readOnWeb}: ${pageUrl}`, '');
  if (options.note) lines.push(...wrap(options.note), '');
  for (const item of view.items) lines.push(...renderItem(item, words), '');
  if (also.length) {
    lines.push(words.alsoInEdition, '');
    for (const item of also) {
      lines.push(...wrap(`- ${item.title}`).map((line, index) => (index === 0 ? line : `  ${line}`)));
      const url = safeUrl(item.url);
      if (url) lines.push(`  ${url}`);
    }
    lines.push('');
  }
  lines.push('--', words.youReceive(view.name));
  const preferences = safeUrl(options.preferencesUrl);
  if (preferences) lines.push(`${words.yourEdition}: ${preferences}`);
  if (unsubscribe) lines.push(`${words.unsubscribe}: ${unsubscribe}`);
  const sender = senderTextLines(options.sender);
  if (sender.length) lines.push('', ...sender);
  return `${lines.join('\n')}\n`;
}

function renderItem(item: ItemView, words: UiText): string[] {
  const indent = '   ';
  const footer = [
    item.citations,
    `via ${item.source}`,
    item.arxiv ? `arXiv:${item.arxiv.id}` : null,
    item.readNote,
  ].filter((part): part is string => !!part);
  // Plain text has no links: a linked fact ("Code") carries its address, or it would say nothing useful.
  const facts = item.facts.map((fact) => (fact.url ? `${fact.label}: ${fact.url}` : fact.label)).join(' · ');
  const heading = wrap(`${item.number}. ${item.title}`);
  return [
    ...heading.map((line, index) => (index === 0 ? line : indent + line)),
    ...(item.url ? [`${indent}${item.url}`] : []),
    ...wrap(
      `${words.levels[item.level as Level] ?? item.level}${item.authorLine ? ` · ${item.authorLine}` : ''}`,
      indent,
    ),
    '',
    ...wrap(item.summary, indent),
    '',
    `${indent}${words.takeaways}:`,
    ...item.takeaways.flatMap((line, index) => {
      const source = item.takeawaySources[index];
      return wrap(source ? `${line} (${source.label}: ${source.url})` : line, `${indent}  `).map(
        (part, at) => (at === 0 ? `${indent}- ${part.trimStart()}` : part),
      );
    }),
    '',
    ...(facts ? [...wrap(facts, indent), ''] : []),
    ...wrap(footer.join(' · '), indent),
  ];
}
