// Helpers every channel shares: only http(s) URLs become links, stable anchors, counts and author lines.
// (Escaping is not here: the templates in _template.ts do it for every interpolation.)
import { parseHttpUrl } from '../core/urls.js';

/**
 * The URL normalised by the WHATWG parser when its scheme is http or https, else null.
 * `javascript:`, `data:`, `vbscript:` and relative or broken URLs are refused: the caller omits the link.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const url = parseHttpUrl(value);
  if (!url || url.username || url.password) return null;
  return url.href;
}

/** "https://example.com/digest" + "2026-05-04/" → absolute URL; null when no base URL is configured. */
export function absoluteUrl(baseUrl: string | undefined, path: string): string | null {
  const base = safeUrl(baseUrl);
  if (!base) return null;
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}

/** A stable, readable anchor for an item; `taken` keeps anchors unique within one page. */
export function itemAnchor(title: string, index: number, taken: Set<string>): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  let anchor = slug ? `item-${slug}` : `item-${index + 1}`;
  for (let suffix = 2; taken.has(anchor); suffix++)
    anchor = `${slug ? `item-${slug}` : `item-${index + 1}`}-${suffix}`;
  taken.add(anchor);
  return anchor;
}

/** Anchors for every item of an edition, in order; the page, feeds and email agree on them. */
export function itemAnchors(titles: string[]): string[] {
  const taken = new Set<string>();
  return titles.map((title, index) => itemAnchor(title, index, taken));
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Author lists beyond this are cut ("and N more"): some papers list hundreds, and the page must stay small. */
export const MAX_AUTHORS = 50;

export function authorLine(authors: string[], max = MAX_AUTHORS): string {
  if (authors.length <= max) return authors.join(', ');
  return `${authors.slice(0, max).join(', ')} and ${authors.length - max} more`;
}
