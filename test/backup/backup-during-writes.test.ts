// A backup of an embedded store while readers subscribe, a send records its mails and click flushes land, all on
// PGlite's one session: the file holds the store as it was at one instant — every write wholly in it or wholly after
// it — and restores with those counts. And every table the schema has is in a backup, or deliberately left out as
// cache. (How long a write waits for a backup is a figure of `npm run bench -- backup`, not a timed test.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBackupFile, restoreBackup, takeBackup } from '../../src/backup/index.js';
import { CACHE_TABLES } from '../../src/backup/take-backup.js';
import { systemClock } from '../../src/core/clock.js';
import { DERIVED_TABLES } from '../../src/store/_catalog.js';
import { pgliteDatabase } from '../../src/store/database.js';
import { openStoreFromPglite } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { freshPglite } from '../support/database.js';
import { seedUpTo } from '../support/level-rows.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const deps = (store: Store) => ({ store, clock: systemClock, log: quiet });
const READERS = 3_000;

async function pgliteStore(): Promise<{ store: Store; db: Kysely<unknown> }> {
  const pglite = await freshPglite();
  const store = await openStoreFromPglite(pglite);
  cleanups.push(() => store.close());
  return { store, db: pgliteDatabase(pglite, { ownsDatabase: false }) as unknown as Kysely<unknown> };
}

async function tempFile(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-backup-writes-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, name);
}

async function count(db: Kysely<unknown>, query: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** What the rounds of writes keep equal: one mail and one counted click per reader of the send. */
async function figures(db: Kysely<unknown>) {
  return {
    readers: await count(db, sql`select count(*)::text as n from subscribers`),
    mails: await count(db, sql`select count(*)::text as n from send_log`),
    clicks: await count(db, sql`select coalesce(sum(clicks), 0)::text as n from link_clicks`),
    // Reader rows as written: still incoming (nothing folds them here) or stored.
    readerClicks: await count(
      db,
      sql`select ((select count(*) from reader_clicks) + (select count(*) from reader_clicks_incoming))::text as n`,
    ),
  };
}

/**
 * Until `done`: a reader subscribes (the subscribe use case's store call) and, in one transaction, another is
 * confirmed and mailed by the send; then the flush counts that reader's click. The loop yields to other tasks
 * between writes, as requests do.
 */
async function writeUntil(store: Store, db: Kysely<unknown>, done: () => boolean): Promise<number> {
  let rounds = 0;
  while (!done()) {
    await new Promise((resolve) => setImmediate(resolve));
    await store.subscribers.request(`pending${rounds}@example.com`, `pending${rounds}@example.com`);
    const id = await db.transaction().execute(async (tx) => {
      const { rows } = await sql<{
        id: number;
      }>`insert into subscribers (address, mailbox, status, confirmed_at)
        values (${`sent${rounds}@example.com`}, ${`sent${rounds}@example.com`}, 'confirmed', now()) returning id`.execute(
        tx,
      );
      const subscriber = rows[0]?.id as number;
      await sql`insert into send_log (edition_date, subscriber_id, state, attempts, smtp_response)
        values ('2026-04-27', ${subscriber}, 'sent', 1, '250 OK')`.execute(tx);
      return subscriber;
    });
    const click = {
      edition: '2026-04-27',
      revision: 1,
      itemKey: 'arxiv:2604.00001',
      channel: 'mail' as const,
    };
    await store.clicks.add(
      [{ ...click, day: '2026-04-27', clicks: 1, prefetched: 0 }],
      [{ ...click, subscriberId: id, at: new Date().toISOString() }],
    );
    rounds++;
  }
  return rounds;
}

describe('a backup while the store is written', () => {
  it('holds every write wholly or not at all, and restores the counts of one instant', async () => {
    const source = await pgliteStore();
    await seedUpTo(source.db, '999');
    await sql`insert into subscribers (address, mailbox, status, confirmed_at)
      select 'reader' || g || '@example.com', 'reader' || g || '@example.com', 'confirmed', now()
      from generate_series(1, ${sql.lit(READERS)}) g`.execute(source.db);
    const before = await figures(source.db);
    const file = await tempFile('during.ndjson.gz');

    let finished = false;
    const writes = writeUntil(source.store, source.db, () => finished);
    const taken = await takeBackup(deps(source.store), { file }).finally(() => {
      finished = true;
    });
    const rounds = await writes;
    const after = await figures(source.db);

    const target = await pgliteStore();
    const restored = await restoreBackup(deps(target.store), await checkBackupFile(file));
    expect(restored.counts).toEqual(taken.counts);
    const snapshot = await figures(target.db);
    // Writes landed on both sides of the snapshot's instant while the backup ran…
    expect(rounds).toBeGreaterThan(0);
    expect(after.readers).toBeGreaterThan(snapshot.readers);
    // …and the file holds whole rounds only: each sent reader with its mail and its counted click, each subscribe
    // either in or out.
    const mailed = snapshot.mails - before.mails;
    expect(mailed).toBeGreaterThanOrEqual(0);
    expect(snapshot.clicks - before.clicks).toBeLessThanOrEqual(mailed);
    expect(snapshot.clicks - before.clicks).toBeGreaterThanOrEqual(mailed - 1);
    expect(snapshot.readerClicks - before.readerClicks).toBe(snapshot.clicks - before.clicks);
    const subscribed = snapshot.readers - before.readers - mailed;
    expect([mailed, mailed + 1]).toContain(subscribed);
    expect(taken.counts.subscribers).toBe(snapshot.readers);
  }, 120_000);

  it('holds every table of the schema but the ones the database derives, and leaves out the cache when asked', async () => {
    const source = await pgliteStore();
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
      where schemaname = current_schema() and tablename not like 'kysely_migration%' order by 1`.execute(
      source.db,
    );
    const schemaTables = rows.map((row) => row.name).filter((name) => !DERIVED_TABLES.includes(name));
    expect(DERIVED_TABLES.every((name) => rows.some((row) => row.name === name))).toBe(true);
    const file = await tempFile('tables.ndjson.gz');
    const whole = await takeBackup(deps(source.store), { file, cache: true });
    expect(Object.keys(whole.counts).sort()).toEqual(schemaTables);
    const lean = await takeBackup(deps(source.store), { file, cache: false });
    const left = schemaTables.filter((table) => !(table in lean.counts));
    expect(left).toEqual([...CACHE_TABLES].sort());
  }, 60_000);
});
