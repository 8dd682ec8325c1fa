// Page metadata for posts: og:image / twitter:image as the card image, readable text for the writer, and the
// arXiv id of a paper the post names. Post URLs come from feeds, so they are untrusted: fetchPageMetadata asks
// the client to refuse non-public addresses on every hop.
import { errorMessage } from '../core/errors.js';
import { arxivIdFromText } from '../core/ids.js';
import type { HttpClient } from '../core/ports.js';
import type { StoredItem } from '../core/types.js';
import { displayUrl } from '../core/urls.js';
import { fetchPageMetadata } from '../sources/page.js';
import { cachedMany, cachePutQuietly, type EnrichCache, PAGE_CACHE_NAMESPACE } from './_cache.js';
import { isPost } from './stored-links.js';
/** Readable text kept per page: plenty for a summary, bounded for the store. */
export const PAGE_TEXT_LIMIT = 20_000;
/** An item with an image and at least this much text is rich enough already: its page is not fetched. */
const RICH_TEXT_CHARS = 1_500;
const CONCURRENCY = 4;

export interface PageDetails {
  image: string | null;
  text: string;
  arxivId: string | null;
}

export interface PageOptions {
  http: HttpClient;
  cache: EnrichCache;
  ttlSeconds: number;
  signal?: AbortSignal;
}

function needsPage(item: StoredItem): boolean {
  return isPost(item) && !(item.image && item.text.length >= RICH_TEXT_CHARS);
}

/** Page details by item key, from the cache or the page itself. Never throws: failures become one warning. */
export async function pageDetails(
  items: StoredItem[],
  options: PageOptions,
): Promise<{ pages: Map<string, PageDetails>; warnings: string[] }> {
  const wanted = items.filter(needsPage);
  const cached = await cachedMany<PageDetails>(
    options.cache,
    PAGE_CACHE_NAMESPACE,
    wanted.map((item) => item.canonicalUrl),
  );
  const pages = new Map<string, PageDetails>();
  const queue: StoredItem[] = [];
  for (const item of wanted) {
    const hit = cached.get(item.canonicalUrl);
    if (hit) pages.set(item.key, hit);
    else queue.push(item);
  }
  const failures: string[] = [];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      try {
        const page = await fetchPageMetadata(item.url, {
          http: options.http,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const text = page.text.slice(0, PAGE_TEXT_LIMIT);
        const details: PageDetails = { image: page.image, text, arxivId: arxivIdFromText(text) };
        pages.set(item.key, details);
        await cachePutQuietly({
          cache: options.cache,
          namespace: PAGE_CACHE_NAMESPACE,
          key: item.canonicalUrl,
          value: details,
          ttl: options.ttlSeconds,
        });
      } catch (error) {
        failures.push(`${displayUrl(item.url)}: ${errorMessage(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  const warnings = failures.length
    ? [
        `pages: ${failures.length} of ${wanted.length} could not be read (first: ${failures.sort()[0]}); kept as ingested`,
      ]
    : [];
  return { pages, warnings };
}
