// A token bucket per key, in memory: per-IP request limits and "one confirmation mail per inbox per hour".

export interface RateLimiterOptions {
  /** Requests allowed in a burst. */
  capacity: number;
  /** One token comes back every `refillMs` (capacity 1 and refillMs 3,600,000: once an hour). */
  refillMs: number;
  /** Buckets kept at most; the least recently used are dropped first (a flood of keys cannot grow memory). */
  maxKeys?: number;
  now?: (() => number) | undefined;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

export interface RateLimiter {
  /** Takes `cost` tokens (default 1) when the bucket holds them; nothing when it does not. */
  take(key: string, cost?: number): RateDecision;
  /** Whether `cost` tokens could be taken now, taking none (check first, charge only what counts). */
  peek(key: string, cost?: number): RateDecision;
  /** Gives back `cost` tokens taken earlier (an attempt that turned out not to count). */
  refund(key: string, cost?: number): void;
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
  const full = capacity * refillMs;
  // When the least recently used bucket is full again, so the earliest a sweep can drop one: reaching the map's
  // first entry walks past every slot deleted since V8 last rebuilt it (thousands, under a flood of addresses), so
  // it is not done on each take for nothing.
  let sweepAt = Number.NEGATIVE_INFINITY;
  const creditOf = (key: string, time: number) => {
    const bucket = buckets.get(key);
    return bucket ? Math.min(full, bucket.credit + Math.max(0, time - bucket.updatedAt)) : full;
  };
  const decide = (credit: number, price: number): RateDecision =>
    credit >= price
      ? { allowed: true, remaining: Math.floor((credit - price) / refillMs) }
      : { allowed: false, retryAfterMs: Math.min(price, full) - credit };
  return {
    take(key, cost = 1) {
      const time = now();
      const price = cost * refillMs;
      const credit = creditOf(key, time);
      buckets.delete(key);
      const allowed = credit >= price;
      const next = { credit: allowed ? credit - price : credit, updatedAt: time };
      // A full bucket is the same as no bucket: only keys that are actually limited take memory.
      if (next.credit < full) buckets.set(key, next);
      while (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      // None left: a bucket made from now on is touched now or later.
      if (time >= sweepAt) sweepAt = (expireIdle(buckets, time - full) ?? time) + full;
      return decide(credit, price);
    },
    peek(key, cost = 1) {
      return decide(creditOf(key, now()), cost * refillMs);
    },
    refund(key, cost = 1) {
      const time = now();
      const credit = Math.min(full, creditOf(key, time) + cost * refillMs);
      buckets.delete(key);
      if (credit < full) buckets.set(key, { credit, updatedAt: time });
    },
    get size() {
      return buckets.size;
    },
  };
}

/** A rate limiter whose buckets may live outside this process (the database instances share): decisions awaited. */
export interface SharedRateLimiter {
  take(key: string, cost?: number): Promise<RateDecision>;
  peek(key: string, cost?: number): Promise<RateDecision>;
  refund(key: string, cost?: number): Promise<void>;
}

/** A limit's shape: `capacity` in a burst, one back every `refillMs`. */
export type RateLimit = Pick<RateLimiterOptions, 'capacity' | 'refillMs'>;

/**
 * Where the buckets of every rate limit live: in this process's memory (one instance), or in the database several
 * `digest serve` instances share, so a client gets one limit however many instances answer it. `name` keeps each
 * limit's keys apart.
 */
export interface RateLimitStore {
  limiter(name: string, limit: RateLimit): SharedRateLimiter;
}

/** Every limit in memory, on `now`'s clock: the one-instance store. */
export function memoryRateLimitStore(now?: () => number): RateLimitStore {
  return {
    limiter(_name, limit) {
      const limiter = createRateLimiter({ ...limit, now });
      return {
        take: async (key, cost) => limiter.take(key, cost),
        peek: async (key, cost) => limiter.peek(key, cost),
        refund: async (key, cost) => limiter.refund(key, cost),
      };
    },
  };
}

/**
 * Drops the buckets untouched since `before`: full again by now, the same as none. The first in the map is the
 * least recently used, so this stops at the first one still in use — a few steps per call, never a scan. Says when
 * the first bucket left was last touched, null when none is left.
 */
function expireIdle(buckets: Map<string, Bucket>, before: number): number | null {
  for (const [key, bucket] of buckets) {
    if (bucket.updatedAt > before) return bucket.updatedAt;
    buckets.delete(key);
  }
  return null;
}
