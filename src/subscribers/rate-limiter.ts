// A token bucket per key, in memory: per-IP request limits and "one confirmation mail per inbox per hour".

export interface RateLimiterOptions {
  /** Requests allowed in a burst. */
  capacity: number;
  /** One token comes back every `refillMs` (capacity 1 and refillMs 3,600,000: once an hour). */
  refillMs: number;
  /** Buckets kept at most; the least recently used are dropped first (a flood of keys cannot grow memory). */
  maxKeys?: number;
  now?: () => number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

export interface RateLimiter {
  take(key: string): RateDecision;
  /** Keys currently tracked (for tests and metrics). */
  readonly size: number;
}

interface Bucket {
  /** Tokens times refillMs: whole milliseconds, so waits come out exact. */
  credit: number;
  updatedAt: number;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { capacity, refillMs } = options;
  if (!Number.isInteger(capacity) || capacity < 1 || !(refillMs > 0))
    throw new Error('a rate limiter needs capacity ≥ 1 and refillMs > 0');
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recently used.
  const buckets = new Map<string, Bucket>();
  return {
    take(key) {
      const time = now();
      const full = capacity * refillMs;
      const bucket = buckets.get(key) ?? { credit: full, updatedAt: time };
      buckets.delete(key);
      const credit = Math.min(full, bucket.credit + Math.max(0, time - bucket.updatedAt));
      const allowed = credit >= refillMs;
      const next = { credit: allowed ? credit - refillMs : credit, updatedAt: time };
      // A full bucket is the same as no bucket: only keys that are actually limited take memory.
      if (next.credit < full) buckets.set(key, next);
      while (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      if (allowed) return { allowed: true, remaining: Math.floor(next.credit / refillMs) };
      return { allowed: false, retryAfterMs: refillMs - credit };
    },
    get size() {
      return buckets.size;
    },
  };
}
