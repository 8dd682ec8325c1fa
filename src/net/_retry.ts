// When to retry and how long to wait: exponential backoff with jitter, or the server's Retry-After.

/** Statuses worth another try: timeouts, rate limits and server errors (not "not implemented"). */
export function isRetryableStatus(status: number): boolean {
  return (
    status === 408 || status === 425 || status === 429 || (status >= 500 && status !== 501 && status !== 505)
  );
}

/** Milliseconds asked for by a Retry-After header (delta-seconds or HTTP date), or null when absent/unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** Milliseconds from a rate-limit body's `retry_after` or `parameters.retry_after` (seconds), or null. */
export function retryAfterFromBody(text: string): number | null {
  let value: unknown;
  try {
    const json = JSON.parse(text) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    value = json.retry_after ?? json.parameters?.retry_after;
  } catch {
    return null;
  }
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value * 1000) : null;
}

export interface BackoffOptions {
  baseMs?: number;
  capMs: number;
  random?: () => number;
}

/** Delay before retry number `attempt` (0-based): base·2^attempt with "equal jitter", capped. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const base = options.baseMs ?? 500;
  const exponential = Math.min(options.capMs, base * 2 ** attempt);
  const random = options.random ?? Math.random;
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
