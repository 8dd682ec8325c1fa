// Enrichment results live in the store's JSON cache; the refresh age is the entry's time to live.
import type { CachePort } from '../store/types.js';

export type EnrichCache = CachePort;

/** Page details of posts (image, text, the arXiv id the page names), by canonical URL. */
export const PAGE_CACHE_NAMESPACE = 'enrich:page';

export const DEFAULT_REFRESH_AGE_HOURS = 72;

export function ttlSeconds(refreshAgeHours: number | undefined): number {
  return Math.max(60, Math.round((refreshAgeHours ?? DEFAULT_REFRESH_AGE_HOURS) * 3600));
}

/** Cached values for `keys` (a miss or an unreadable cache is simply not in the map). */
export async function cachedMany<T>(
  cache: EnrichCache,
  namespace: string,
  keys: string[],
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (const key of keys) {
    try {
      const value = await cache.cacheGet<T>(namespace, key);
      if (value !== null && value !== undefined) found.set(key, value);
    } catch {
      // A cache that cannot be read means fetching again, never a failed edition.
    }
  }
  return found;
}

export async function cachePutQuietly(
  cache: EnrichCache,
  namespace: string,
  key: string,
  value: unknown,
  ttl: number,
): Promise<void> {
  try {
    await cache.cachePut(namespace, key, value, ttl);
  } catch {
    // Not cached this time: the next run fetches again.
  }
}
