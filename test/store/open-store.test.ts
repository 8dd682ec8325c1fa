// Opening the store: migrations once, concurrent openers, clear errors, one transaction per upsert call.

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { StoreError } from '../../src/core/errors.js';
import { LOCK_FILE } from '../../src/store/data-dir.js';
import { migrationNames } from '../../src/store/migrate.js';
import { openStore, openStoreFromPglite } from '../../src/store/open-store.js';
import { createPostgresDatabase, freshPglite, storeDatabases } from '../support/database.js';
import { sourceItem } from '../support/source-items.js';

const POISON = `CREATE FUNCTION fail_on_poison() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN IF NEW.title = 'poison' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$;
  CREATE TRIGGER poison BEFORE INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION fail_on_poison();`;

/** 1,200 items whose 900th the database refuses: the first 500-row chunk is written before the failure. */
const poisonedBatch = () =>
  Array.from({ length: 1200 }, (_, n) =>
    sourceItem({ url: `https://bulk.example.com/${n}`, title: n === 900 ? 'poison' : `Item ${n}` }),
  );

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('openStore on PGlite', () => {
  it('creates the data folder, keeps data across reopenings and lets one process at a time in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const dataDir = join(dir, 'nested', 'data');
    const first = await openStore({ dataDir });
    await first.items.upsert([sourceItem()]);
    await expect(openStore({ dataDir })).rejects.toThrow(/is in use by another digest process/);
    await first.close();

    // A lock left by a process that no longer exists (killed) is taken over.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid: gone, host: hostname(), since: 'then' }));
    const second = await openStore({ dataDir });
    cleanups.push(() => second.close());
    expect(await second.items.candidates(editionWindow('2026-05-04'))).toHaveLength(1);
  });

  it('refuses a folder that holds other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-store-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await expect(openStore({ dataDir: dir })).rejects.toThrow(
      /is not a digest data folder \(it holds notes\.txt\)/,
    );
  });

  it('applies pending migrations and records each version once', async () => {
    const pglite = await freshPglite();
    // An empty database but for Kysely's bookkeeping: every table the migrations made is gone.
    const { rows: tables } = await pglite.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables
       WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
    );
    await pglite.exec(`DROP TABLE ${tables.map((table) => table.name).join(', ')} CASCADE`);
    await pglite.exec('DELETE FROM kysely_migration');
    const store = await openStoreFromPglite(pglite, { closeDatabase: false });
    cleanups.push(() => pglite.close());
    await store.ingestRuns.record({
      startedAt: '2026-05-04T00:00:00Z',
      finishedAt: '2026-05-04T00:01:00Z',
      sources: [],
    });
    const { rows } = await pglite.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY 1');
    expect(rows.map((row) => row.name)).toEqual(migrationNames());
  });

  it('refuses a database from a newer version of the program', async () => {
    const pglite = await freshPglite();
    cleanups.push(() => pglite.close());
    await pglite.exec(
      `INSERT INTO kysely_migration (name, timestamp) VALUES ('999-from-the-future', '2030-01-01')`,
    );
    const opening = openStoreFromPglite(pglite, { closeDatabase: false });
    await expect(opening).rejects.toThrow(StoreError);
    await expect(opening).rejects.toThrow(/migration 999-from-the-future, newer than this program knows/);
  });

  it('writes an upsert call all or nothing', async () => {
    const pglite = await freshPglite();
    const store = await openStoreFromPglite(pglite);
    cleanups.push(() => store.close());
    await pglite.exec(POISON);
    await expect(store.items.upsert(poisonedBatch())).rejects.toThrow(/poisoned row/);
    expect(await store.items.candidates(editionWindow('2026-05-04'))).toEqual([]);
    await pglite.exec('DROP TRIGGER poison ON items');
    expect((await store.items.upsert(poisonedBatch())).inserted).toBe(1200);
  });
});

const postgres = storeDatabases().find((database) => database.kind === 'postgresql');

describe.skipIf(postgres?.skip !== null)('openStore on PostgreSQL', () => {
  it('lets concurrent openers of a fresh database migrate it once', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ databaseUrl: database.url })));
    for (const store of stores) cleanups.push(() => store.close());
    const results = await Promise.all(
      stores.map((store, n) => store.items.upsert([sourceItem({ sourceId: `s${n}` })])),
    );
    expect(results.map((result) => result.inserted).sort()).toEqual([0, 0, 1]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    const { rows } = await client.query('SELECT name FROM kysely_migration');
    expect(rows).toHaveLength(migrationNames().length);
  });

  it('writes an upsert call all or nothing', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const store = await openStore({ databaseUrl: database.url });
    cleanups.push(() => store.close());
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    await client.query(POISON);
    await expect(store.items.upsert(poisonedBatch())).rejects.toThrow(/poisoned row/);
    expect(await store.items.candidates(editionWindow('2026-05-04'))).toEqual([]);
    await client.query('DROP TRIGGER poison ON items');
    expect((await store.items.upsert(poisonedBatch())).inserted).toBe(1200);
  });
});

describe('openStore with an unreachable PostgreSQL', () => {
  it('fails with a StoreError that names the server without its password', async () => {
    const port = await closedPort();
    const opening = openStore({ databaseUrl: `postgres://digest:s3cret@127.0.0.1:${port}/digest` });
    await expect(opening).rejects.toThrow(StoreError);
    const message = await opening.catch((error: Error) => error.message);
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('s3cret');
  });
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}
