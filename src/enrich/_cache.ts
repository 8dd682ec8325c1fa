// Enrichment results live in the store's JSON cache; the refresh age is the entry's time to live.
import type { CachePort } from '../core/ports.js';

export type EnrichCache = CachePort;

/** Page details of posts (image, text, the arXiv id the page names), by canonical URL. */
export const PAGE_CACHE_NAMESPACE = 'enrich:page';

/** arXiv metadata by id (arxiv-metadata.ts writes it; reading papers in full asks it for the latest version). */
export const ARXIV_CACHE_NAMESPACE = 'enrich:arxiv';

export const DEFAULT_REFRESH_AGE_HOURS = 72;

export function ttlSeconds(refreshAgeHours: number | undefined): number {
  return Math.max(60, Math.round((refreshAgeHours ?? DEFAULT_REFRESH_AGE_HOURS) * 3600));
}

/** Cached values for `keys`, in one query where the cache can (a miss or an unreadable cache is not in the map). */
export async function cachedMany<T>(
  cache: EnrichCache,
  namespace: string,
  keys: string[],
): Promise<Map<string, T>> {
  if (cache.getMany) return cache.getMany<T>(namespace, keys).catch(() => new Map<string, T>());
  const found = new Map<string, T>();
  for (const key of keys) {
    try {
      const value = await cache.get<T>(namespace, key);
      if (value !== null && value !== undefined) found.set(key, value);
    } catch {
      // A cache that cannot be read means fetching again, never a failed edition.
    }
  }
  return found;
}

export async function cachePutQuietly({
  cache,
  namespace,
  key,
  value,
  ttl,
}: {
  cache: EnrichCache;
  namespace: string;
  key: string;
  value: unknown;
  ttl: number;
}): Promise<void> {
  try {
    await cache.put({ namespace, key, value, ttlSeconds: ttl });
  } catch {
    // Not cached this time: the next run fetches again.
  }
}

export interface CacheSlot {
  cache: EnrichCache;
  namespace: string;
  ttlSeconds: number;
}

/**
 * Values by key: the cached ones, then the missing ones fetched (only when some are missing) and cached. A fetch
 * that throws leaves the cached ones and its error, for the caller to say what was kept.
 */
export async function cachedOrFetched<T>(
  keys: string[],
  slot: CacheSlot,
  fetchMissing: (missing: string[]) => Promise<{ found: [string, T][]; warnings: string[] }>,
): Promise<{ values: Map<string, T>; warnings: string[]; error?: unknown }> {
  const values = await cachedMany<T>(slot.cache, slot.namespace, keys);
  const missing = keys.filter((key) => !values.has(key));
  if (missing.length === 0) return { values, warnings: [] };
  try {
    const fetched = await fetchMissing(missing);
    for (const [key, value] of fetched.found) {
      values.set(key, value);
      await cachePutQuietly({
        cache: slot.cache,
        namespace: slot.namespace,
        key,
        value,
        ttl: slot.ttlSeconds,
      });
    }
    return { values, warnings: fetched.warnings };
  } catch (error) {
    return { values, warnings: [], error };
  }
}
