// Opens the store: PostgreSQL when a database URL is given, else PGlite in a folder (or in memory).
// Pending migrations are applied before the store is handed out.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import pg from 'pg';
import { errorMessage, StoreError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { pruneCache } from './cache.js';
import { createStore } from './create-store.js';
import { assertDataDir, lockDataDir } from './data-dir.js';
import { migrate } from './migrate.js';
import { pgliteClient } from './pglite-client.js';
import { postgresClient } from './postgres-client.js';
import type { SqlClient } from './sql-client.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** PGlite data folder (created when missing), or "memory://" for a database that lives only in memory. */
  dataDir?: string;
  /** postgres://… — when set, PostgreSQL is used and dataDir is ignored. */
  databaseUrl?: string;
  log?: Logger;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgresStore(options.databaseUrl, options.log);
  const location = pgliteLocation(options.dataDir ?? './data');
  if (location.startsWith('memory://')) {
    return openStoreOnClient(pgliteClient(await openPglite(location)), options.log, `PGlite ${location}`);
  }
  await mkdir(location, { recursive: true }).catch((error: unknown) => {
    throw new StoreError(`Could not create the data folder ${location}: ${errorMessage(error)}`, {
      cause: error,
    });
  });
  await assertDataDir(location);
  const lock = await lockDataDir(location);
  try {
    const client = pgliteClient(await openPglite(location));
    const locked: SqlClient = { ...client, close: () => client.close().finally(() => lock.release()) };
    return await openStoreOnClient(locked, options.log, `the PGlite database in ${location}`);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * A store over an already open PGlite (tests load one from a prepared copy). Closing the store closes the
 * PGlite too, unless `closeDatabase` is false.
 */
export function openStoreFromPglite(
  pglite: PGliteInterface,
  options: { log?: Logger; closeDatabase?: boolean } = {},
): Promise<Store> {
  const client = pgliteClient(pglite, { ownsDatabase: options.closeDatabase ?? true });
  return openStoreOnClient(client, options.log, 'the PGlite database');
}

function pgliteLocation(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : resolve(dataDir);
}

async function openPglite(location: string): Promise<PGlite> {
  try {
    return await PGlite.create({ dataDir: location });
  } catch (error) {
    throw new StoreError(
      `Could not open the PGlite database in ${location}: ${errorMessage(error)}. ` +
        'Check the folder is writable and holds a digest database, or pass another --data-dir.',
      { cause: error },
    );
  }
}

async function openPostgresStore(databaseUrl: string, log?: Logger): Promise<Store> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 15_000 });
  // An idle connection dropped by the server must not take the process down; the next query reconnects.
  pool.on('error', (error) => log?.warn(`store: PostgreSQL connection lost: ${error.message}`));
  return openStoreOnClient(
    postgresClient(pool),
    log,
    `PostgreSQL at ${redact(databaseUrl)}`,
    'Check DATABASE_URL and that the server is running.',
  );
}

async function openStoreOnClient(
  client: SqlClient,
  log: Logger | undefined,
  where: string,
  hint = '',
): Promise<Store> {
  try {
    const { applied, version } = await migrate(client, log);
    if (applied.length) log?.debug(`store: schema now at version ${version}`);
    await pruneCache(client);
  } catch (error) {
    await client.close().catch(() => {});
    throw new StoreError(`Could not open ${where}: ${errorMessage(error)}. ${hint}`.trim(), { cause: error });
  }
  return createStore(client, log);
}

/** The URL without its password, for messages. */
function redact(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
