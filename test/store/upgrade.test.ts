// A database made by release 0.1 (its own schema_migrations bookkeeping, before Kysely's Migrator) opens with this
// release and upgrades in place, keeping every row: as a PGlite data folder and on PostgreSQL.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { pgliteDatabase } from '../../src/store/database.js';
import { migrateTo, migrationNames } from '../../src/store/migrate.js';
import { openStore, openStoreFromPglite } from '../../src/store/open-store.js';
import type { Database } from '../../src/store/schema.js';
import type { Store } from '../../src/store/types.js';
import {
  createPostgresDatabase,
  freshPglite,
  seedPgliteDataDir,
  storeDatabases,
} from '../support/database.js';
import { sourceItem } from '../support/source-items.js';
import { RELEASE_0_1_BOOKKEEPING, RELEASE_0_1_ROWS, RELEASE_0_1_SCHEMA } from './fixtures/release-0.1.js';
import { expectLevelKept, seedLevel } from './level-upgrade.js';

const RELEASE_0_1 = `${RELEASE_0_1_SCHEMA}\n${RELEASE_0_1_BOOKKEEPING}\n${RELEASE_0_1_ROWS}`;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every row of the release-0.1 fixture reads back through the new store, and the store still writes. */
async function expectRowsKept(store: Store): Promise<void> {
  const paper = await store.items.get('arxiv:2604.24819');
  expect(paper).toMatchObject({
    title: 'Paper 2604.24819',
    authors: ['Grace Hopper'],
    upvotes: 12,
    publishedAt: '2026-05-01T09:30:00.000Z',
    firstSeenAt: '2026-05-01T10:00:00.000Z',
  });
  const candidates = await store.items.candidates(editionWindow('2026-05-04'));
  expect(candidates.map((item) => item.key).sort()).toEqual([
    'arxiv:2604.24819',
    'url:https://blog.example.com/manual',
  ]);
  expect(candidates.find((item) => item.manual)?.manual).toEqual({ week: '2026-05-04', note: 'a note' });
  expect(await store.editions.get('2026-04-27')).toMatchObject({
    title: 'Old edition',
    publishedAt: '2026-04-27T07:00:00.000Z',
  });
  expect(await store.editions.list()).toEqual([
    {
      date: '2026-04-27',
      name: 'Week 18',
      title: 'Old edition',
      itemCount: 1,
      publishedAt: '2026-04-27T07:00:00.000Z',
    },
  ]);
  expect(await store.editions.featuredBefore('2026-05-04')).toEqual(new Set(['arxiv:2604.24819']));
  expect(await store.decisions.get('2026-05-04')).toEqual(new Map([['arxiv:2604.24819', 'skip']]));
  expect(await store.cache.get('llm', 'k1')).toEqual({ summary: 'cached' });
  expect(await store.sourceState.get('api-hf')).toEqual({
    'https://x.example/': { etag: '"e"', lastModified: null },
  });
  expect((await store.ingestRuns.last())?.sources).toEqual([{ id: 'api-hf', status: 'ok', items: 1 }]);
  expect(await store.items.upsert([sourceItem()])).toEqual({ inserted: 1, merged: 0, skipped: 0 });
}

describe('a release-0.1 PGlite data folder', () => {
  it('opens, is adopted by the migrator and keeps its rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-upgrade-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const dataDir = join(dir, 'data');
    // A real folder (no initdb: the test template), emptied and given the release-0.1 schema and rows.
    await seedPgliteDataDir(dataDir);
    const old = await PGlite.create({ dataDir });
    const { rows } = await old.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`,
    );
    await old.exec(`DROP TABLE ${rows.map((row) => row.name).join(', ')}`);
    await old.exec(RELEASE_0_1);
    await old.close();

    const store = await openStore({ dataDir });
    try {
      await expectRowsKept(store);
    } finally {
      await store.close();
    }
    const reopened = await PGlite.create({ dataDir });
    try {
      const applied = await reopened.query<{ name: string }>(
        'SELECT name FROM kysely_migration ORDER BY name',
      );
      expect(applied.rows.map((row) => row.name)).toEqual(migrationNames());
      // The old bookkeeping stays as it was: release 0.1 can still open the folder.
      const legacy = await reopened.query<{ version: number }>('SELECT version FROM schema_migrations');
      expect(legacy.rows).toEqual([{ version: 1 }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});

describe('a PGlite database written at each migration level', () => {
  for (const level of migrationNames()) {
    it(`keeps every row of level ${level} when this program opens it`, async () => {
      const pglite = await freshPglite();
      cleanups.push(() => pglite.close());
      const db = pgliteDatabase(pglite, { ownsDatabase: false });
      cleanups.push(() => db.destroy());
      await emptyToLevel(pglite, db, level);
      const before = await seedLevel(db as unknown as Kysely<unknown>, level);
      const store = await openStoreFromPglite(pglite, { closeDatabase: false });
      cleanups.push(() => store.close());
      await expectLevelKept(store, level, before);
    }, 60_000);
  }
});

/** The template database emptied to before its first migration, then migrated up to `level` only. */
async function emptyToLevel(pglite: PGlite, db: Kysely<Database>, level: string): Promise<void> {
  const { rows } = await pglite.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
  );
  await pglite.exec(`DROP TABLE ${rows.map((row) => row.name).join(', ')} CASCADE`);
  await pglite.exec('DELETE FROM kysely_migration');
  await migrateTo(db, level);
}

const postgres = storeDatabases().find((database) => database.kind === 'postgresql');

describe.skipIf(postgres?.skip !== null)('a release-0.1 PostgreSQL database', () => {
  it('opens, is adopted by the migrator and keeps its rows', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    await client.query(RELEASE_0_1);
    const store = await openStore({ databaseUrl: database.url });
    try {
      await expectRowsKept(store);
    } finally {
      await store.close();
    }
    const applied = await client.query('SELECT name FROM kysely_migration ORDER BY name');
    expect(applied.rows.map((row: { name: string }) => row.name)).toEqual(migrationNames());
  });
});
