// Citation counts per arXiv id via Semantic Scholar, cached. 0 is a real count; unknown stays null.
import { errorMessage } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { cachedMany, cachePutQuietly, type EnrichCache } from './_cache.js';
import { fetchCitationCounts } from './semantic-scholar.js';

export const CITATIONS_CACHE_NAMESPACE = 'enrich:citations';

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
  const cached = await cachedMany<{ citations: number | null }>(
    options.cache,
    CITATIONS_CACHE_NAMESPACE,
    ids,
  );
  const counts = new Map([...cached].map(([id, value]) => [id, value.citations]));
  const missing = ids.filter((id) => !counts.has(id));
  if (missing.length === 0) return { counts, warnings: [] };
  try {
    const fetched = await fetchCitationCounts(missing, {
      http: options.http,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for (const [id, citations] of fetched) {
      counts.set(id, citations);
      await cachePutQuietly(options.cache, CITATIONS_CACHE_NAMESPACE, id, { citations }, options.ttlSeconds);
    }
    return { counts, warnings: [] };
  } catch (error) {
    return {
      counts,
      warnings: [`citations: Semantic Scholar lookup failed (${errorMessage(error)}); counts left unknown`],
    };
  }
}
