// The one thing enrichment learns that the store's items do not hold: the arXiv id a post's page names (selection
// then merges the post into that paper; the store keeps the post under its own key). Read from the enrichment
// cache only, never fetched, by every ranking — build (online or --offline), `list` and the desk — so they all rank
// the same candidates. Light on purpose: it loads no page parser.
import { arxivIdFromUrl } from '../core/ids.js';
import type { StoredItem } from '../core/types.js';
import { isHttpUrl } from '../core/urls.js';
import { cachedMany, type EnrichCache, PAGE_CACHE_NAMESPACE } from './_cache.js';

/** Posts are items whose link is not a paper page (arXiv, Hugging Face papers). */
export function isPost(item: StoredItem): boolean {
  return isHttpUrl(item.url) && arxivIdFromUrl(item.url) === null;
}

/** `items` with the arXiv id each post's cached page names, where the item has none. */
export async function withStoredLinks(items: StoredItem[], cache: EnrichCache): Promise<StoredItem[]> {
  const posts = items.filter((item) => item.arxivId === null && isPost(item));
  if (!posts.length) return items;
  const pages = await cachedMany<{ arxivId?: string | null }>(
    cache,
    PAGE_CACHE_NAMESPACE,
    posts.map((item) => item.canonicalUrl),
  );
  return items.map((item) => {
    if (item.arxivId !== null) return item;
    const linked = pages.get(item.canonicalUrl)?.arxivId;
    return linked ? { ...item, arxivId: linked } : item;
  });
}
