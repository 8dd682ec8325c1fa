// edition.md: the edition as Markdown to paste into Substack, Buttondown or GitHub.
import { formatLongDate } from '../core/dates.js';
import type { Edition, EditionItem } from '../core/types.js';
import { authorLine, plural, safeImageUrl, safeUrl } from './_html.js';

/**
 * Source text stays text: characters that open Markdown or inline HTML anywhere (emphasis, code, links, raw HTML,
 * entities, GFM tables/strikethrough/math) get a backslash, as does a leading block marker (heading, list, quote,
 * rule). Line breaks become spaces, so a value can never start a block of its own.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|~&$@]/g, '\\$&')
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** URLs go inside <…>: the WHATWG form has no spaces, "<" or ">" left, and only http(s) gets through. */
function link(text: string, url: string | null): string {
  return url ? `[${escapeMarkdown(text)}](<${url}>)` : escapeMarkdown(text);
}

export function renderEditionMarkdown(edition: Edition, options: { pageUrl?: string | null } = {}): string {
  const lines = [
    `# ${escapeMarkdown(edition.title)}`,
    '',
    `*${escapeMarkdown(edition.name)} · ${escapeMarkdown(formatLongDate(edition.date))} · ${plural(edition.items.length, 'paper')}*`,
    '',
    escapeMarkdown(edition.intro),
    '',
  ];
  for (const item of edition.items) lines.push(...renderItem(item), '');
  const pageUrl = safeUrl(options.pageUrl);
  if (pageUrl) lines.push(`[Read this edition on the web](<${pageUrl}>)`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderItem(item: EditionItem): string[] {
  const image = safeImageUrl(item.image);
  const footer: string[] = [];
  if (item.citations !== null && item.citations !== undefined)
    footer.push(plural(item.citations, 'citation'));
  footer.push(`via ${escapeMarkdown(item.source)}`);
  if (item.arxivId) {
    const path = item.arxivId.split('/').map(encodeURIComponent).join('/');
    footer.push(link(`arXiv:${item.arxivId}`, `https://arxiv.org/abs/${path}`));
  }
  return [
    `## ${link(item.title, safeUrl(item.url))}`,
    '',
    ...(image ? [`![${escapeMarkdown(item.title)}](<${image}>)`, ''] : []),
    `**${escapeMarkdown(item.level)}**${item.authors.length ? ` · ${escapeMarkdown(authorLine(item.authors))}` : ''}`,
    '',
    escapeMarkdown(item.summary),
    '',
    '**Takeaways**',
    '',
    ...item.takeaways.map((line) => `- ${escapeMarkdown(line)}`),
    '',
    `*${footer.join(' · ')}*`,
  ];
}
