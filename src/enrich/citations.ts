// Citation counts per arXiv id via Semantic Scholar, cached. 0 is a real count; unknown stays null.
import { errorMessage } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { cachedOrFetched, type EnrichCache } from './_cache.js';
import { fetchCitationCounts } from './semantic-scholar.js';

export const CITATIONS_CACHE_NAMESPACE = 'enrich:citations';

/** A count as cached: 0 is a real count, null an unknown one. */
interface CachedCount {
  citations: number | null;
}

export interface CitationEnrichOptions {
  http: HttpClient;
  cache: EnrichCache;
  ttlSeconds: number;
  baseUrl?: string;
  apiKey?: string;
  signal?: AbortSignal;
}

export async function citationCounts(
  arxivIds: string[],
  options: CitationEnrichOptions,
): Promise<{ counts: Map<string, number | null>; warnings: string[] }> {
  const ids = [...new Set(arxivIds)].sort();
  const slot = { cache: options.cache, namespace: CITATIONS_CACHE_NAMESPACE, ttlSeconds: options.ttlSeconds };
  const { values, warnings, error } = await cachedOrFetched<CachedCount>(ids, slot, async (missing) => {
    // Its options are a subset of ours: http, base URL, API key, signal.
    const fetched = await fetchCitationCounts(missing, options);
    return { found: [...fetched].map(([id, citations]) => [id, { citations }]), warnings: [] };
  });
  const counts = new Map([...values].map(([id, value]) => [id, value.citations]));
  if (error === undefined) return { counts, warnings };
  return {
    counts,
    warnings: [`citations: Semantic Scholar lookup failed (${errorMessage(error)}); counts left unknown`],
  };
}
