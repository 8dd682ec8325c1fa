// One web page's metadata for a manual item: og:/twitter: meta, canonical link, readable text (Readability on
// linkedom). The URL is untrusted: the client refuses non-public addresses on every hop. The page is untrusted too:
// Readability's time grows with the square of the nesting depth and steeply with the page's size, so
// scripts and styles are stripped first, the DOM holds at most MAX_DOM_CHARS, and a page deeper than
// MAX_READABLE_DEPTH, or longer than MAX_READABLE_CHARS or MAX_READABLE_NODES, gives its text by the linear tokenizer. Builds run
// this in their own process (compose/build-process.ts), never on the server's event loop.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { FetchError } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { collapse } from '../core/text.js';
import { displayUrl, httpUrl } from '../core/urls.js';
import { decodeFeedBytes } from './_decode.js';
import { parseFeedDate } from './_feed-dates.js';
import { flattenDepth } from './_flatten-depth.js';
import { htmlToText } from './_html-text.js';

export interface PageMetadata {
  url: string;
  title: string;
  description: string;
  image: string | null;
  text: string;
  siteName: string | null;
  publishedAt: string | null;
}

const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/i;
/** Script-like blocks, removed before parsing: each match ends at its end tag or the page's end, so it is linear. */
const SCRIPT_BLOCKS = /<(script|style|noscript|template|svg)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
/** The readable text kept is 20,000 characters (enrich/page-details.ts): a million characters of markup is plenty. */
export const MAX_DOM_CHARS = 1_000_000;
/** Markup Readability is given at most (scripts and styles stripped): a long article is a tenth of it. */
export const MAX_READABLE_CHARS = 300_000;
/** Elements, text and comments: about twice the elements of an ordinary long post. */
export const MAX_READABLE_NODES = 20_000;
export const MAX_READABLE_DEPTH = 64;
/** Deeper elements are dropped (their text kept) before the DOM is built: a page this deep is not read by Readability. */
const MAX_DOM_DEPTH = 256;

export async function fetchPageMetadata(
  url: string,
  options: { http: HttpClient; signal?: AbortSignal },
): Promise<PageMetadata> {
  const response = await options.http.request({
    url,
    trusted: false,
    headers: { accept: 'text/html, application/xhtml+xml;q=0.9' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const type = response.headers['content-type'] ?? '';
  if (type && !HTML_TYPES.test(type)) {
    throw new FetchError(
      `${displayUrl(response.url)} is not an HTML page (${type}); give the page's address instead`,
      { url },
    );
  }
  const metaCharset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(
    response.body.subarray(0, 4096).toString('latin1'),
  )?.[1];
  const contentType = /charset=/i.test(type) || !metaCharset ? type : `text/html; charset=${metaCharset}`;
  return readPage(decodeFeedBytes(response.body, contentType).text, response.url);
}

/** Metadata of an HTML document fetched from `pageUrl` (its final URL after redirects). */
export function readPage(html: string, pageUrl: string): PageMetadata {
  const markup = withoutScripts(html, MAX_DOM_CHARS);
  // Readability is given no markup longer than MAX_READABLE_CHARS, so past it the DOM only answers for the page's
  // metadata (head, canonical link, first <time>), and a DOM of its first MAX_READABLE_CHARS is enough: a DOM of a
  // million characters of tags costs tens of MB. The text still comes from all of `markup`.
  const readableSize = markup.length <= MAX_READABLE_CHARS;
  // The DOM is built from markup at most MAX_DOM_DEPTH deep (_flatten-depth.ts).
  const shallow = flattenDepth(readableSize ? markup : markup.slice(0, MAX_READABLE_CHARS), MAX_DOM_DEPTH);
  const { document } = parseHTML(shallow.markup);
  // One pass over the page's meta elements (not a selector walk over the whole page per key): the first of each name.
  const metas = new Map<string, string>();
  for (const element of Array.from(document.querySelectorAll('meta'))) {
    for (const attribute of ['property', 'name']) {
      const key = element.getAttribute(attribute)?.toLowerCase();
      const content = collapse(element.getAttribute('content') ?? '');
      if (key && content && !metas.has(key)) metas.set(key, content);
    }
  }
  const meta = (...keys: string[]): string | null => {
    for (const key of keys) {
      const content = metas.get(key.toLowerCase());
      if (content) return content;
    }
    return null;
  };
  // A page may name its canonical address on its own site only: it must not claim another site's item.
  const canonical = httpUrl(
    document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'),
    pageUrl,
  );
  const base = canonical && site(canonical) === site(pageUrl) ? canonical : pageUrl;
  const image = httpUrl(
    meta('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
    base,
  );
  const published =
    meta(
      'article:published_time',
      'og:published_time',
      'datePublished',
      'date',
      'dc.date',
      'dcterms.created',
    ) ??
    document.querySelector('time[datetime]')?.getAttribute('datetime') ??
    null;
  const title =
    meta('og:title', 'twitter:title') ?? collapse(document.querySelector('title')?.textContent ?? '') ?? '';
  const description = meta('og:description', 'twitter:description', 'description') ?? '';
  const siteName = meta('og:site_name', 'application-name');
  // Readability rewrites the document it reads, so it runs last; a page too deep or too large for it is not given.
  const article =
    !shallow.flattened && readableSize && withinReadableSize(document) ? readable(document) : null;
  const text = collapse(article?.textContent ?? '') || htmlToText(markup) || description;
  return {
    url: base,
    title: title || collapse(article?.title ?? '') || new URL(base).hostname,
    description,
    image,
    text,
    siteName,
    publishedAt: parseFeedDate(published),
  };
}

/**
 * The page without script-like blocks, its first `max` characters: built from pieces of the page, so a 12 MB page
 * is never copied whole (a copy it would then keep alive behind the slice of it that is kept).
 */
function withoutScripts(html: string, max: number): string {
  const parts: string[] = [];
  let length = 0;
  let last = 0;
  const take = (end: number) => {
    const piece = html.slice(last, Math.min(end, last + max - length));
    parts.push(piece);
    length += piece.length;
  };
  for (const match of html.matchAll(SCRIPT_BLOCKS)) {
    take(match.index);
    if (length >= max) return parts.join('');
    parts.push(' ');
    length += 1;
    last = match.index + match[0].length;
  }
  take(html.length);
  return parts.join('').slice(0, max);
}

function site(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/** Whether Readability reads `document` in bounded time: one walk in document order, stopped past the limits. */
function withinReadableSize(document: Document): boolean {
  const depths = new Map<Node, number>();
  // Elements, text and comments (1 | 4 | 128): a page of a million comments is as slow to read as one of elements.
  const walker = document.createTreeWalker(document.documentElement, 1 | 4 | 128);
  let count = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const depth = (node.parentNode ? (depths.get(node.parentNode) ?? 0) : 0) + 1;
    count += 1;
    if (depth > MAX_READABLE_DEPTH || count > MAX_READABLE_NODES) return false;
    depths.set(node, depth);
  }
  return true;
}

function readable(
  document: Document,
): { title?: string | null | undefined; textContent?: string | null | undefined } | null {
  try {
    return new Readability(document, { charThreshold: 200 }).parse();
  } catch {
    return null;
  }
}
