// arXiv metadata (title, abstract, authors, categories, dates) for every item with an arXiv id, posts that
// link a paper included. Batched through the arXiv source's fetchArxivEntries; cached per id.
import { errorMessage } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { type ArxivEntry, fetchArxivEntries } from '../sources/arxiv-api.js';
import { cachedMany, cachePutQuietly, type EnrichCache } from './_cache.js';

export const ARXIV_CACHE_NAMESPACE = 'enrich:arxiv';

export interface ArxivMetadataOptions {
  http: HttpClient;
  cache: EnrichCache;
  ttlSeconds: number;
  baseUrl?: string;
  /** Pause between arXiv API batches (arXiv asks for 3 s; tests pass 0). */
  pauseMs?: number;
  signal?: AbortSignal;
}

/** Entries by arXiv id, from the cache or the API. Never throws: problems come back as warnings. */
export async function arxivMetadata(
  arxivIds: string[],
  options: ArxivMetadataOptions,
): Promise<{ entries: Map<string, ArxivEntry>; warnings: string[] }> {
  const ids = [...new Set(arxivIds)].sort();
  const entries = await cachedMany<ArxivEntry>(options.cache, ARXIV_CACHE_NAMESPACE, ids);
  const missing = ids.filter((id) => !entries.has(id));
  if (missing.length === 0) return { entries, warnings: [] };
  try {
    const fetched = await fetchArxivEntries(missing, {
      http: options.http,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.pauseMs !== undefined ? { pauseMs: options.pauseMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for (const entry of fetched.entries) {
      entries.set(entry.arxivId, entry);
      await cachePutQuietly(options.cache, ARXIV_CACHE_NAMESPACE, entry.arxivId, entry, options.ttlSeconds);
    }
    return { entries, warnings: fetched.warnings.map((warning) => `arXiv: ${warning}`) };
  } catch (error) {
    return {
      entries,
      warnings: [`arXiv: metadata lookup failed (${errorMessage(error)}); items kept as ingested`],
    };
  }
}
