// arXiv metadata (title, abstract, authors, categories, dates) for every item with an arXiv id, posts that
// link a paper included. Batched through the arXiv source's fetchArxivEntries; cached per id.
import { errorMessage } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { type ArxivEntry, fetchArxivEntries } from '../sources/arxiv-api.js';
import { ARXIV_CACHE_NAMESPACE, cachedOrFetched, type EnrichCache } from './_cache.js';

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
  const slot = { cache: options.cache, namespace: ARXIV_CACHE_NAMESPACE, ttlSeconds: options.ttlSeconds };
  const { values, warnings, error } = await cachedOrFetched<ArxivEntry>(ids, slot, async (missing) => {
    // Its options are a subset of ours: http, base URL, pause between batches, signal.
    const fetched = await fetchArxivEntries(missing, options);
    return {
      found: fetched.entries.map((entry) => [entry.arxivId, entry]),
      warnings: fetched.warnings.map((warning) => `arXiv: ${warning}`),
    };
  });
  if (error === undefined) return { entries: values, warnings };
  return {
    entries: values,
    warnings: [`arXiv: metadata lookup failed (${errorMessage(error)}); items kept as ingested`],
  };
}
