// RawEntry → SourceItem: links resolved (entry xml:base → feed xml:base → feed link → feed URL) and kept only
// when http(s); text made plain; the first readable date decides the window. An entry with no readable date is
// skipped and counted in a warning: stamping it "now" would put a years-old post in this week's edition.

import { inWindow } from '../core/dates.js';
import { arxivIdFromText, arxivIdFromUrl, canonicalUrl } from '../core/ids.js';
import { collapse } from '../core/text.js';
import type { DateWindow, SourceItem } from '../core/types.js';
import { httpUrl } from '../core/urls.js';
import { parseFeedDate } from './_feed-dates.js';
import type { RawEntry, RawFeed } from './_feed-entries.js';
import { firstImageSrc, htmlToText } from './_html-text.js';
import { resolveBase } from './_urls.js';

export interface ItemsResult {
  items: SourceItem[];
  /** Entries skipped for a reason worth telling (no link, no title, no date), counted per reason. */
  skipped: Map<string, number>;
  /** Entries outside the window (normal, not a warning). */
  outside: number;
}

const TITLE_FROM_TEXT = 90;

export function feedItems(
  feed: RawFeed,
  options: { sourceId: string; feedUrl: string; window: DateWindow },
): ItemsResult {
  const feedBase = resolveBase(feed.base, resolveBase(feed.link, options.feedUrl));
  const result: ItemsResult = { items: [], skipped: new Map(), outside: 0 };
  const seen = new Set<string>();
  const skip = (reason: string) => result.skipped.set(reason, (result.skipped.get(reason) ?? 0) + 1);
  for (const entry of feed.entries) {
    const item = toItem(entry, feedBase, options.sourceId);
    if (typeof item === 'string') {
      skip(item);
      continue;
    }
    if (!inWindow(item.publishedAt, options.window)) {
      result.outside += 1;
      continue;
    }
    const keys = [canonicalUrl(item.url), item.arxivId ? `arxiv:${item.arxivId}` : null].filter(
      Boolean,
    ) as string[];
    if (keys.some((key) => seen.has(key))) continue;
    for (const key of keys) seen.add(key);
    result.items.push(item);
  }
  return result;
}

/** The item, or the reason it was skipped. */
export function toItem(entry: RawEntry, feedBase: string | null, sourceId: string): SourceItem | string {
  const base = resolveBase(entry.base, feedBase);
  const url = httpUrl(entry.link, base) ?? httpUrl(entry.id);
  if (!url) return 'no http(s) link';
  const text = stripArxivListingPrefix(entry.htmlIsText ? collapse(entry.html) : htmlToText(entry.html));
  let title = entry.titleIsHtml ? htmlToText(entry.title) : collapse(entry.title);
  if (!title) title = shorten(text);
  if (!title) return 'no title';
  const publishedAt = entry.dates.map(parseFeedDate).find((date) => date !== null);
  if (!publishedAt) return 'no readable date';
  const image =
    entry.images.map((candidate) => httpUrl(candidate, base)).find((candidate) => candidate !== null) ??
    (entry.htmlIsText ? null : firstImageSrc(entry.html, base ?? url));
  return {
    sourceId,
    url,
    title,
    text,
    authors: authorNames(entry.authors),
    arxivId: arxivIdFromUrl(url) ?? arxivIdFromText(`${title} ${text} ${paperLinks(entry.html)}`),
    image,
    publishedAt,
    upvotes: null,
  };
}

function shorten(text: string): string {
  if (text.length <= TITLE_FROM_TEXT) return text;
  const cut = text.slice(0, TITLE_FROM_TEXT);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : TITLE_FROM_TEXT).trim()}…`;
}

// rss.arxiv.org descriptions start "arXiv:2604.21935v1 Announce Type: new Abstract: ..."
function stripArxivListingPrefix(text: string): string {
  return text.replace(/^arXiv:\S+\s+Announce Type:\s*\S+\s+Abstract:\s*/i, '');
}

/**
 * "jane@example.com (Jane Doe)" → "Jane Doe"; a list in one field ("Hao Zhang, Chen Li, Basura Fernando", as in
 * arXiv's dc:creator) → one name each; duplicates and blanks dropped.
 */
export function authorNames(raw: string[]): string[] {
  const names = raw
    .map((value) => htmlToText(value))
    .flatMap(splitNameList)
    .map((value) => {
      const inParentheses = /^\S+@\S+\s*\(([^)]+)\)$/.exec(value);
      return collapse(inParentheses?.[1] ?? value);
    })
    .filter((value) => value && !/^\S+@\S+$/.test(value));
  return [...new Set(names)];
}

/** Splits on commas when the value is a list: three or more parts, or two full names ("Doe, Jane" stays whole). */
function splitNameList(value: string): string[] {
  if (!value.includes(',')) return [value];
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const fullName = (part: string) => /\S\s+\S/.test(part);
  if (parts.length >= 3 || (parts.length === 2 && parts.every(fullName))) return parts;
  return [value];
}

/**
 * The paper link of a post that links exactly one arXiv paper (a post about that paper names it in a link,
 * not in its text). A post linking several papers is about none of them in particular: no id.
 */
function paperLinks(html: string | undefined): string {
  if (!html) return '';
  const ids = new Set<string>();
  for (const match of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const id = match[1] ? arxivIdFromUrl(match[1].replace(/&amp;/g, '&')) : null;
    if (id) ids.add(id);
  }
  return ids.size === 1 ? `https://arxiv.org/abs/${[...ids][0]}` : '';
}
