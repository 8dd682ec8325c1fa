// Rate limits kept in the database, for `digest serve` instances sharing one PostgreSQL: a token bucket per key, as
// core/rate-limiter.ts keeps in memory, taken in one upsert so that concurrent requests on any instance see each
// other's takes (the row lock orders them). A bucket's row holds its credit (tokens times refillMs) as of its
// last use and the moment it will be full again; a full bucket is the same as none, so those rows are deleted,
// at most once a minute, by whichever take comes next.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { RateDecision, RateLimit, RateLimitStore, SharedRateLimiter } from '../core/rate-limiter.js';
import type { Database } from './schema.js';

const PRUNE_EVERY_MS = 60_000;

const float = (value: number): RawBuilder<number> => sql<number>`${value}::float8`;

/** The limits' buckets in `rate_limit_buckets`, on `now`'s clock (ms). */
export function databaseRateLimitStore(db: Kysely<Database>, now: () => number): RateLimitStore {
  let prunedAt = Number.NEGATIVE_INFINITY;
  const prune = (time: number) => {
    if (time - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = time;
    // Nobody waits for it; a failure only leaves full buckets for the next one.
    db.deleteFrom('rate_limit_buckets')
      .where('full_at', '<=', time)
      .execute()
      .catch(() => undefined);
  };
  return {
    limiter(name, limit) {
      return bucketLimiter(db, { name, limit, now, prune });
    },
  };
}

interface BucketSettings {
  name: string;
  limit: RateLimit;
  now: () => number;
  prune: (time: number) => void;
}

function bucketLimiter(db: Kysely<Database>, settings: BucketSettings): SharedRateLimiter {
  const { capacity, refillMs } = settings.limit;
  if (!Number.isInteger(capacity) || capacity < 1 || !(refillMs > 0))
    throw new Error('a rate limiter needs capacity ≥ 1 and refillMs > 0');
  const full = capacity * refillMs;
  const rowKey = (key: string) => `${settings.name}\n${key}`;
  const decide = (credit: number, price: number, allowed: boolean): RateDecision =>
    allowed
      ? { allowed: true, remaining: Math.floor(credit / refillMs) }
      : { allowed: false, retryAfterMs: Math.min(price, full) - credit };
  // The bucket's credit now: what it held, plus what came back since, up to full.
  const creditNow = (time: number) =>
    sql<number>`least(${float(full)}, b.credit + greatest(0, ${float(time)} - b.updated_at))`;
  return {
    async take(key, cost = 1) {
      const time = settings.now();
      settings.prune(time);
      const price = cost * refillMs;
      const fresh = price <= full ? full - price : full;
      const current = creditNow(time);
      const enough = sql<boolean>`${current} >= ${float(price)}`;
      const after = sql<number>`${current} - CASE WHEN ${enough} THEN ${float(price)} ELSE 0 END`;
      const { rows } = await sql<{ credit: number; allowed: boolean }>`
        INSERT INTO rate_limit_buckets AS b (key, credit, updated_at, full_at, allowed)
        VALUES (${rowKey(key)}, ${float(fresh)}, ${float(time)}, ${float(time + full - fresh)}, ${price <= full})
        ON CONFLICT (key) DO UPDATE SET
          credit = ${after}, updated_at = ${float(time)}, full_at = ${float(time + full)} - (${after}),
          allowed = ${enough}
        RETURNING credit, allowed`.execute(db);
      const row = rows[0]!;
      const credit = Number(row.credit);
      return row.allowed ? decide(credit, price, true) : decide(credit, price, false);
    },
    async peek(key, cost = 1) {
      const time = settings.now();
      const row = await db
        .selectFrom('rate_limit_buckets as b')
        .select(creditNow(time).as('credit'))
        .where('key', '=', rowKey(key))
        .executeTakeFirst();
      const credit = row ? Number(row.credit) : full;
      const price = cost * refillMs;
      return decide(credit, price, credit >= price);
    },
    async refund(key, cost = 1) {
      const time = settings.now();
      const credit = sql<number>`least(${float(full)}, ${creditNow(time)} + ${float(cost * refillMs)})`;
      await sql`
        UPDATE rate_limit_buckets AS b
        SET credit = ${credit}, updated_at = ${float(time)}, full_at = ${float(time + full)} - (${credit})
        WHERE key = ${rowKey(key)}`.execute(db);
    },
  };
}
