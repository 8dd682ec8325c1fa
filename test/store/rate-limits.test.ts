// Store contract: rate limits kept in the database. The same decisions as the in-memory token bucket, step for
// step (on PGlite, where the SQL runs the same as on PostgreSQL); on PostgreSQL, takes from several stores on one
// database at once — several `digest serve` instances — are counted once: capacity is capacity, not N × capacity.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { memoryRateLimitStore, type RateDecision, type RateLimitStore } from '../../src/core/rate-limiter.js';
import { pgliteDatabase } from '../../src/store/database.js';
import { openStore } from '../../src/store/open-store.js';
import { databaseRateLimitStore } from '../../src/store/rate-limits.js';
import type { Database } from '../../src/store/schema.js';
import { createPostgresDatabase, freshPglite, storeDatabases } from '../support/database.js';

type Step = ['take' | 'peek' | 'refund', string, number, number];

/** [what, key, cost, ms later]: bursts, refusals, refills, refunds, a cost above capacity, two keys. */
const SCRIPT: Step[] = [
  ['take', 'a', 1, 0],
  ['take', 'a', 1, 0],
  ['take', 'a', 1, 0],
  ['take', 'a', 1, 0],
  ['peek', 'a', 1, 400],
  ['take', 'a', 1, 0],
  ['take', 'b', 2, 0],
  ['refund', 'a', 1, 0],
  ['take', 'a', 1, 0],
  ['take', 'a', 1, 1_500],
  ['take', 'b', 5, 0],
  ['take', 'b', 1, 10_000],
  ['peek', 'b', 3, 0],
  ['take', 'a', 1, 0],
  ['refund', 'b', 3, 0],
  ['take', 'b', 3, 0],
];

async function play(limits: RateLimitStore, clock: { time: number }): Promise<(RateDecision | null)[]> {
  const limiter = limits.limiter('test', { capacity: 3, refillMs: 1_000 });
  const other = limits.limiter('other', { capacity: 1, refillMs: 60_000 });
  const seen: (RateDecision | null)[] = [];
  for (const [what, key, cost, later] of SCRIPT) {
    clock.time += later;
    if (what === 'refund') seen.push((await limiter.refund(key, cost)) ?? null);
    else seen.push(await limiter[what](key, cost));
  }
  // Another limit's keys are its own: the same key there is untouched.
  seen.push(await other.take('a'));
  return seen;
}

describe('rate limits in the database (PGlite)', () => {
  it('decide as the in-memory bucket, step for step', async () => {
    const pglite = await freshPglite();
    const db = pgliteDatabase(pglite) as unknown as Kysely<Database>;
    try {
      const memoryClock = { time: 1_000_000 };
      const databaseClock = { time: 1_000_000 };
      const expected = await play(
        memoryRateLimitStore(() => memoryClock.time),
        memoryClock,
      );
      const got = await play(
        databaseRateLimitStore(db, () => databaseClock.time),
        databaseClock,
      );
      expect(got).toEqual(expected);
      expect(expected.filter((decision) => decision?.allowed === false).length).toBeGreaterThan(2);
    } finally {
      await db.destroy();
    }
  });

  it('deletes buckets once they are full again, at most once a minute', async () => {
    const pglite = await freshPglite();
    const db = pgliteDatabase(pglite) as unknown as Kysely<Database>;
    try {
      const clock = { time: 0 };
      const limiter = databaseRateLimitStore(db, () => clock.time).limiter('x', {
        capacity: 2,
        refillMs: 1_000,
      });
      await limiter.take('one');
      await limiter.take('two', 2);
      const count = async () =>
        Number(
          (await db.selectFrom('rate_limit_buckets').select(db.fn.countAll().as('n')).executeTakeFirst())?.n,
        );
      expect(await count()).toBe(2);
      // 'one' is full after 1 s, 'two' after 2 s: a take at 61 s prunes both (and adds its own).
      clock.time = 61_000;
      await limiter.take('three');
      await expect.poll(count).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;

describe.skipIf(postgres.skip !== null)('rate limits on one PostgreSQL shared by three instances', () => {
  it('count every take once: a burst spread over three stores allows exactly the capacity', async () => {
    const database = await createPostgresDatabase();
    const stores = [] as Awaited<ReturnType<typeof openStore>>[];
    try {
      for (let n = 0; n < 3; n++) stores.push(await openStore({ databaseUrl: database.url }));
      expect(stores.every((store) => store.manyInstances)).toBe(true);
      const now = () => 5_000_000;
      const limiters = stores.map((store) =>
        store.rateLimits(now).limiter('sign-in', { capacity: 10, refillMs: 60_000 }),
      );
      const decisions = await Promise.all(
        Array.from({ length: 30 }, (_, n) => limiters[n % 3]!.take('ip:203.0.113.9')),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
      expect(await limiters[1]!.peek('ip:203.0.113.9')).toEqual({ allowed: false, retryAfterMs: 60_000 });
    } finally {
      for (const store of stores) await store.close();
      await database.drop();
    }
  });
});
