// A fresh store per test, fast.
// PGlite: initdb + migrations run once and are kept as a tarball in node_modules/.cache (keyed by the PGlite
// version and the migration modules' source), so no test run pays for initdb after the first. Each test file loads one copy
// (~0.5 s) and each test gets it emptied (TRUNCATE, a few ms); a second store open at once gets its own copy.
// PostgreSQL: a new database per test on the run's server (see postgres.ts), dropped on close.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, beforeEach, inject } from 'vitest';
import { tightenPermissions } from '../../src/store/data-dir-permissions.js';
import { pgliteDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrate.js';
import { openStore, openStoreFromPglite } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { quickTier } from './environment.js';

export type DatabaseKind = 'pglite' | 'postgresql';

export interface StoreDatabase {
  kind: DatabaseKind;
  /** Why this database is not available on this machine, or null. */
  skip: string | null;
}

/** The databases the store contract runs on: `for (const { kind, skip } of storeDatabases())`. */
export function storeDatabases(): StoreDatabase[] {
  return [
    { kind: 'pglite', skip: null },
    { kind: 'postgresql', skip: postgresSkipReason() },
  ];
}

function postgresSkipReason(): string | null {
  if (quickTier()) return 'the quick tier runs the store on PGlite; `npm run test:all` adds PostgreSQL';
  return testDatabaseUrl() ? null : 'no PostgreSQL server (see test/support/postgres.ts)';
}

export function testDatabaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL || inject('testDatabaseUrl') || null;
}

/** A store on an empty, migrated database of its own; close it when done. */
export async function createTestStore(kind: DatabaseKind = 'pglite'): Promise<Store> {
  return kind === 'pglite' ? createPgliteTestStore() : createPostgresTestStore();
}

export async function withTestStore<T>(
  fn: (store: Store) => Promise<T>,
  kind: DatabaseKind = 'pglite',
): Promise<T> {
  const store = await createTestStore(kind);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Registers a fresh store per test in the current describe block; call the returned getter inside a test. */
export function useTestStore(kind: DatabaseKind = 'pglite'): () => Store {
  let store: Store | undefined;
  beforeEach(async () => {
    store = await createTestStore(kind);
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (!store) throw new Error('useTestStore(): the store exists only inside a test');
    return store;
  };
}

let shared: { pglite: Promise<PGlite>; busy: boolean } | undefined;

async function createPgliteTestStore(): Promise<Store> {
  if (shared?.busy) return openStoreFromPglite(await freshPglite());
  shared ??= { pglite: freshPglite(), busy: false };
  const slot = shared;
  slot.busy = true;
  try {
    const pglite = await slot.pglite;
    await emptyDatabase(pglite);
    const store = await openStoreFromPglite(pglite, { closeDatabase: false });
    return {
      ...store,
      async close() {
        await store.close();
        slot.busy = false;
      },
    };
  } catch (error) {
    slot.busy = false;
    throw error;
  }
}

async function emptyDatabase(pglite: PGlite): Promise<void> {
  const { rows } = await pglite.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
  );
  if (rows.length)
    await pglite.exec(`TRUNCATE ${rows.map((row) => row.name).join(', ')} RESTART IDENTITY CASCADE`);
}

/** A new PGlite holding an empty, migrated database; the caller closes it. */
export async function freshPglite(): Promise<PGlite> {
  const { dump, wasm } = await pgliteTemplate();
  return PGlite.create({ loadDataDir: dump, pgliteWasmModule: wasm });
}

/** Seeds `dataDir` (a new folder) with an empty, migrated database, without initdb's ~4 s. */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const { dump, wasm } = await pgliteTemplate();
  const pglite = await PGlite.create({ dataDir, loadDataDir: dump, pgliteWasmModule: wasm });
  await pglite.close();
  // As openStore leaves a folder it made: private to its owner.
  await tightenPermissions(dataDir);
}

let template: Promise<{ dump: Blob; wasm: WebAssembly.Module }> | undefined;

function pgliteTemplate() {
  template ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const wasm = await WebAssembly.compile(await readFile(join(dist, 'pglite.wasm')));
    const version = JSON.parse(await readFile(join(dist, '..', 'package.json'), 'utf8')).version as string;
    const digest = await migrationsDigest();
    const file = join(CACHE_DIR, `pglite-${version}-${digest}.tgz`);
    const cached = await readFile(file).catch(() => null);
    if (cached) return { dump: new Blob([cached]), wasm };
    const dump = await buildTemplate(wasm);
    // Written aside then renamed, so a parallel worker never reads half a file.
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return { dump, wasm };
  })();
  return template;
}

const CACHE_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'node_modules',
  '.cache',
  'digest-tests',
);

const MIGRATIONS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'src',
  'store',
  'migrations',
);

/** The migration modules' source: a changed or added migration makes a new template. */
async function migrationsDigest(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(name).update(await readFile(join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function buildTemplate(wasm: WebAssembly.Module): Promise<Blob> {
  const pglite = await PGlite.create({ dataDir: 'memory://', pgliteWasmModule: wasm });
  try {
    const db = pgliteDatabase(pglite, { ownsDatabase: false });
    await migrate(db);
    await db.destroy();
    return await pglite.dumpDataDir('gzip');
  } finally {
    await pglite.close();
  }
}

let databases = 0;

/** An empty database on the run's PostgreSQL server (no schema yet); `drop()` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = testDatabaseUrl();
  if (!serverUrl) throw new Error('no PostgreSQL server for this test run: use storeDatabases() to skip');
  const name = `digest_test_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(serverUrl, name) };
}

async function createPostgresTestStore(): Promise<Store> {
  const database = await createPostgresDatabase();
  let store: Store;
  try {
    store = await openStore({ databaseUrl: database.url });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    ...store,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
