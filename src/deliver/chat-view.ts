// What a chat message shows of an edition: the same fields on every platform, as clean plain text. Each adapter
// escapes them for its own markup and cuts them to its own limits.
import { formatLongDate } from '../core/dates.js';
import type { Edition } from '../core/types.js';
import { safeUrl } from '../core/urls.js';
import { clean } from './_text.js';

export interface ChatItem {
  title: string;
  /** Only http(s) links; null when the item's URL is anything else. */
  url: string | null;
  summary: string;
  level: string;
  source: string;
}

export interface ChatEdition {
  date: string;
  /** "LLM News Digest: <title>" */
  heading: string;
  /** "May 4, 2026 · 12 items" */
  dateline: string;
  intro: string;
  /** The edition's page on the published site: every message can point there for what it leaves out. */
  pageUrl: string;
  items: ChatItem[];
}

export function chatEdition(edition: Edition, pageUrl: string): ChatEdition {
  const count = edition.items.length;
  return {
    date: edition.date,
    heading: clean(`${edition.name}: ${edition.title}`),
    dateline: `${formatLongDate(edition.date)} · ${count} ${count === 1 ? 'item' : 'items'}`,
    intro: clean(edition.intro),
    pageUrl,
    items: edition.items.map((item) => ({
      title: clean(item.title),
      url: safeUrl(item.url),
      summary: clean(item.summary),
      level: clean(item.level),
      source: clean(item.source),
    })),
  };
}

/** "…and 3 more items" for what did not fit, or null. */
export function omittedNote(omitted: number): string | null {
  if (omitted <= 0) return null;
  return `…and ${omitted} more ${omitted === 1 ? 'item' : 'items'} in the edition`;
}
