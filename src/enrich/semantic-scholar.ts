// Citation counts from the Semantic Scholar Graph API batch endpoint:
//   POST {base}/paper/batch?fields=citationCount,externalIds  body {"ids":["ARXIV:2604.24819", …]}
// The answer is an array in request order, null for papers it does not know.
import { z } from 'zod';
import { FetchError } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { displayUrl } from '../core/urls.js';

export const DEFAULT_SEMANTIC_SCHOLAR_URL = 'https://api.semanticscholar.org/graph/v1';
/** The endpoint accepts up to 500 ids per request. */
const BATCH_LIMIT = 500;
export const CITATION_FIELDS = 'citationCount,externalIds';

const paperSchema = z.object({
  paperId: z.string().optional(),
  citationCount: z.number().int().min(0).nullable().optional(),
  externalIds: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const batchResponseSchema = z.array(paperSchema.nullable());

export interface CitationOptions {
  http: HttpClient;
  baseUrl?: string;
  /** Optional key (env SEMANTIC_SCHOLAR_API_KEY), sent as x-api-key. */
  apiKey?: string;
  signal?: AbortSignal;
}

export class CitationLookupError extends FetchError {
  override name = 'CitationLookupError';
}

/**
 * Citation counts by arXiv id. A paper Semantic Scholar does not know (or whose count it omits) maps to null;
 * 0 is a real count. Throws FetchError when the service fails or answers something unreadable.
 */
export async function fetchCitationCounts(
  arxivIds: string[],
  options: CitationOptions,
): Promise<Map<string, number | null>> {
  const base = (options.baseUrl ?? DEFAULT_SEMANTIC_SCHOLAR_URL).replace(/\/+$/, '');
  const url = `${base}/paper/batch?fields=${CITATION_FIELDS}`;
  const counts = new Map<string, number | null>();
  const unique = [...new Set(arxivIds)];
  for (let start = 0; start < unique.length; start += BATCH_LIMIT) {
    const ids = unique.slice(start, start + BATCH_LIMIT);
    const response = await options.http.request({
      url,
      method: 'POST',
      trusted: true,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      },
      body: JSON.stringify({ ids: ids.map((id) => `ARXIV:${id}`) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let parsed: z.infer<typeof batchResponseSchema>;
    try {
      parsed = batchResponseSchema.parse(JSON.parse(response.body.toString('utf8')));
    } catch (error) {
      throw new CitationLookupError(
        `Semantic Scholar answered ${displayUrl(url)} with something other than a paper list; citations left unknown`,
        { url, status: response.status, cause: error },
      );
    }
    if (parsed.length !== ids.length) {
      throw new CitationLookupError(
        `Semantic Scholar returned ${parsed.length} entries for ${ids.length} ids; citations left unknown`,
        { url, status: response.status },
      );
    }
    ids.forEach((id, index) => {
      const paper = parsed[index];
      counts.set(id, typeof paper?.citationCount === 'number' ? paper.citationCount : null);
    });
  }
  return counts;
}
