// Conditional GETs of configured URLs, one per day of the window for daily lists. A bad day is a warning
// naming the day and the reason; only a source whose every day failed is an error.
import { errorMessage, FetchError, UnreachableError } from '../core/errors.js';
import type { HttpResponse, SourceContext, SourceFetchResult, SourceState } from '../core/ports.js';
import type { DateWindow, SourceItem } from '../core/types.js';
import { displayUrl } from '../core/urls.js';

export type DayResult<T> =
  | { day: string; url: string; kind: 'ok'; value: T }
  | { day: string; url: string; kind: 'not-modified' }
  | { day: string; url: string; kind: 'failed'; reason: string; status?: number };

/**
 * GET a configured (trusted) URL, sending the validators kept for it only when they were kept for a window that
 * covers this one: a 304 means "nothing new since", and entries outside that earlier window were never stored.
 */
export async function conditionalGet(
  context: SourceContext,
  url: string,
  accept: string,
): Promise<HttpResponse> {
  const previous = context.state[url];
  const usable = previous?.window && covers(previous.window, context.window) ? previous : null;
  return context.http.request({
    url,
    trusted: true,
    headers: { accept },
    etag: usable?.etag ?? null,
    lastModified: usable?.lastModified ?? null,
    ...(context.signal ? { signal: context.signal } : {}),
  });
}

/** Keeps the validators of a response whose body was read for `window` (never of one that failed to read). */
export function keepValidators({
  state,
  url,
  response,
  window,
}: {
  state: SourceState;
  url: string;
  response: HttpResponse;
  window: DateWindow;
}): void {
  if (response.notModified || !(response.etag || response.lastModified)) return;
  state[url] = { etag: response.etag, lastModified: response.lastModified, window: { ...window } };
}

function covers(outer: DateWindow, inner: DateWindow): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** Days fetched at once by a per-day source unless its config says otherwise. */
export const DEFAULT_DAY_CONCURRENCY = 3;

/** True when the source was stopped by its overall deadline (ingest's timeoutSignal), not cancelled. */
export function stoppedByDeadline(signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError'
  );
}

/**
 * One conditional GET per day, a few at a time (context.dayConcurrency, default 3), results in day order.
 * A day that fails is a result, not an exception: when the network is missing the remaining days are not
 * asked (they would fail the same way), and when the source's deadline passes the days still open are
 * reported as unfinished while the finished ones keep their items. Only a cancellation (Ctrl-C) throws.
 */
export async function fetchDays<T>({
  context,
  days,
  urlFor,
  accept,
  read,
}: {
  context: SourceContext;
  days: string[];
  urlFor: (day: string) => string;
  accept: string;
  read: (response: HttpResponse, day: string) => T | Promise<T>;
}): Promise<{ results: DayResult<T>[]; state: SourceState }> {
  const state: SourceState = { ...context.state };
  const results: DayResult<T>[] = new Array(days.length);
  let unreachable: string | null = null;
  let next = 0;
  const fetchDay = async (day: string): Promise<DayResult<T>> => {
    const url = urlFor(day);
    if (unreachable) return { day, url, kind: 'failed', reason: `not asked: ${unreachable}` };
    if (stoppedByDeadline(context.signal)) return { day, url, kind: 'failed', reason: unfinished() };
    try {
      const response = await conditionalGet(context, url, accept);
      if (response.notModified) return { day, url, kind: 'not-modified' };
      const value = await read(response, day);
      keepValidators({ state, url, response, window: context.window });
      return { day, url, kind: 'ok', value };
    } catch (error) {
      if (stoppedByDeadline(context.signal)) return { day, url, kind: 'failed', reason: unfinished() };
      if (context.signal?.aborted) throw error;
      if (error instanceof UnreachableError) unreachable ??= error.message;
      const status = error instanceof FetchError ? error.status : undefined;
      return { day, url, kind: 'failed', reason: errorMessage(error), ...(status ? { status } : {}) };
    }
  };
  const worker = async () => {
    while (next < days.length) {
      const index = next++;
      results[index] = await fetchDay(days[index] as string);
    }
  };
  const workers = Math.max(1, Math.min(context.dayConcurrency ?? DEFAULT_DAY_CONCURRENCY, days.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { results, state };
}

function unfinished(): string {
  return "not finished before the source's deadline";
}

/** Warnings for failed days, and an error when no day worked. */
export function dayProblems(results: DayResult<unknown>[]): {
  warnings: string[];
  error?: string;
  notModified?: boolean;
} {
  const failed = results.filter((result) => result.kind === 'failed');
  const warnings = failed.map((result) =>
    result.status === 404
      ? `${result.day}: no list published (HTTP 404 from ${displayUrl(result.url)})`
      : `${result.day}: ${result.reason}`,
  );
  if (failed.length > 0 && failed.length === results.length) {
    const first = failed[0]?.reason ?? 'unknown reason';
    return { warnings, error: `all ${results.length} days failed; first: ${first}` };
  }
  if (results.length > 0 && results.every((result) => result.kind === 'not-modified')) {
    return { warnings, notModified: true };
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

/** What one day's capture yielded. */
export interface DayRead {
  items: SourceItem[];
  warnings: string[];
}

/**
 * One source result from per-day captures: each day's warnings prefixed with its day, items merged by `keep`
 * (first seen, earliest list day, …), and an error only when every day failed.
 */
export function mergeDays(
  results: DayResult<DayRead>[],
  state: SourceState,
  keep: (items: Map<string, SourceItem>, item: SourceItem) => void,
): SourceFetchResult {
  const { warnings, error, notModified } = dayProblems(results);
  const items = new Map<string, SourceItem>();
  for (const result of results) {
    if (result.kind !== 'ok') continue;
    warnings.push(...result.value.warnings.map((warning) => `${result.day}: ${warning}`));
    for (const item of result.value.items) keep(items, item);
  }
  return {
    items: [...items.values()],
    warnings,
    state,
    ...(error ? { error } : {}),
    ...(notModified ? { notModified } : {}),
  };
}
