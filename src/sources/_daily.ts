// Conditional GETs of configured URLs, one per day of the window for daily lists. A bad day is a warning
// naming the day and the reason; only a source whose every day failed is an error.
import { errorMessage, FetchError } from '../core/errors.js';
import type { HttpResponse, SourceContext, SourceState } from '../core/ports.js';
import type { SourceItem } from '../core/types.js';

export type DayResult<T> =
  | { day: string; url: string; kind: 'ok'; value: T }
  | { day: string; url: string; kind: 'not-modified' }
  | { day: string; url: string; kind: 'failed'; reason: string; status?: number };

/** GET a configured (trusted) URL with the validators kept for it; `state` receives the new ones. */
export async function conditionalGet(
  context: SourceContext,
  url: string,
  accept: string,
  state: SourceState,
): Promise<HttpResponse> {
  const previous = context.state[url];
  const response = await context.http.request({
    url,
    trusted: true,
    headers: { accept },
    etag: previous?.etag ?? null,
    lastModified: previous?.lastModified ?? null,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (response.etag || response.lastModified) {
    state[url] = { etag: response.etag, lastModified: response.lastModified };
  }
  return response;
}

export async function fetchDays<T>(
  context: SourceContext,
  days: string[],
  urlFor: (day: string) => string,
  accept: string,
  read: (response: HttpResponse, day: string) => T,
): Promise<{ results: DayResult<T>[]; state: SourceState }> {
  const state: SourceState = { ...context.state };
  const results: DayResult<T>[] = [];
  for (const day of days) {
    const url = urlFor(day);
    try {
      const response = await conditionalGet(context, url, accept, state);
      if (response.notModified) results.push({ day, url, kind: 'not-modified' });
      else results.push({ day, url, kind: 'ok', value: read(response, day) });
    } catch (error) {
      if (context.signal?.aborted) throw error;
      const status = error instanceof FetchError ? error.status : undefined;
      results.push({ day, url, kind: 'failed', reason: errorMessage(error), ...(status ? { status } : {}) });
    }
  }
  return { results, state };
}

/** Warnings for failed days, and an error when no day worked. */
export function dayProblems(results: DayResult<unknown>[]): { warnings: string[]; error?: string } {
  const failed = results.filter((result) => result.kind === 'failed');
  const warnings = failed.map((result) =>
    result.status === 404
      ? `${result.day}: no list published (HTTP 404 from ${result.url})`
      : `${result.day}: ${result.reason}`,
  );
  if (failed.length > 0 && failed.length === results.length) {
    const first = failed[0]?.reason ?? 'unknown reason';
    return { warnings, error: `all ${results.length} days failed; first: ${first}` };
  }
  return { warnings };
}

/** A paper listed on several days keeps its first list day and its highest upvote count. */
export function keepEarliest(items: Map<string, SourceItem>, item: SourceItem): void {
  const key = item.arxivId ?? item.url;
  const known = items.get(key);
  if (!known) items.set(key, item);
  else if (item.upvotes !== null && (known.upvotes === null || item.upvotes > known.upvotes))
    known.upvotes = item.upvotes;
}
