// Opens the store: PostgreSQL when a database URL is given, else PGlite in a folder (or in memory).
// Pending migrations are applied before the store is handed out. PGlite and pg load only when used.
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { errorMessage, StoreError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { pruneCache } from './cache.js';
import { type CreateStoreOptions, createStore } from './create-store.js';
import { assertDataDir, lockDataDir } from './data-dir.js';
import { isPrivateFolder, tightenPermissions, tightenStartFiles } from './data-dir-permissions.js';
import { pgliteDatabase, postgresDatabase } from './database.js';
import { migrate } from './migrate.js';
import { pgliteOptions } from './pglite-options.js';
import { takeWarmStart } from './pglite-warm.js';
import { isPrepared, prepareDataDir } from './prepare-data-dir.js';
import type { Database } from './schema.js';
import { clearShare, findShare, heldByServe, SHARE_SOCKET, sharePglite, shareUrl } from './share-pglite.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** PGlite data folder (created when missing), or "memory://" for a database that lives only in memory. */
  dataDir?: string | undefined;
  /** postgres://… — when set, PostgreSQL is used and dataDir is ignored. */
  databaseUrl?: string;
  log?: Logger | undefined;
  /** Let V8 optimise PGlite's WebAssembly too (DIGEST_WASM_OPTIMIZE=1; see pglite-options.ts). */
  optimizeWasm?: boolean;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const { log } = options;
  if (options.databaseUrl) {
    const { databaseUrl } = options;
    return openStoreOnDatabase({
      db: await postgresDatabase(databaseUrl, log),
      options: { log },
      where: `PostgreSQL at ${redact(databaseUrl)}`,
      hint: 'Check DATABASE_URL and that the server is running.',
    });
  }
  const given = options.dataDir ?? './data';
  if (given.startsWith('memory://')) {
    const pglite = await openPglite(given, options.optimizeWasm);
    return openStoreOnDatabase({
      db: pgliteDatabase(pglite),
      options: { log, session: 'embedded' },
      where: `PGlite ${given}`,
    });
  }
  const location = resolve(given);
  await mkdir(location, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
    throw new StoreError(`Could not create the data folder ${location}: ${errorMessage(error)}`, {
      cause: error,
    });
  });
  await assertDataDir(location);
  const served = await openSharedStore(location, log);
  if (served) return served;
  const lock = await lockDataDir(location, { log }).catch(async (error: unknown) => {
    // `digest serve` may have taken the folder between the two looks.
    if (await findShare(location)) return null;
    throw error;
  });
  if (!lock) return openStore(options);
  try {
    if (!isPrepared(location)) await prepareDataDir(location, { log });
    // A killed `digest serve` leaves its socket and share file behind.
    await clearShare(location);
    // Files inside a folder others cannot enter are not exposed (a killed run leaves a few 0666 ones): the walk
    // before PGlite starts only when the folder is not private (0700, ours), its warning only when others could
    // enter it; the walk when the store closes tightens every file either way.
    if (!isPrivateFolder(location)) {
      const exposed = ((await stat(location)).mode & 0o005) !== 0;
      const loosened = await tightenPermissions(location);
      if (exposed && loosened)
        log?.warn(`tightened permissions of ${given}: ${loosened} files were readable by others`);
    }
    const pglite = await openPglite(location, options.optimizeWasm);
    const db = pgliteDatabase(pglite);
    // PostgreSQL rewrote its relation-cache init files 0666 less the umask: private again.
    tightenStartFiles(location);
    return await openStoreOnDatabase({
      db,
      options: {
        log,
        jobLock: 'process',
        session: 'embedded',
        share: () => sharePglite(pglite, location, log),
        // And what this session added.
        onClose: () => tightenPermissions(location).then(() => lock.release()),
      },
      where: `the PGlite database in ${location}`,
    });
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
  options: { log?: Logger | undefined; closeDatabase?: boolean } = {},
): Promise<Store> {
  const db = pgliteDatabase(pglite, { ownsDatabase: options.closeDatabase ?? true });
  return openStoreOnDatabase({
    db,
    options: { log: options.log, jobLock: 'process', session: 'embedded' },
    where: 'the PGlite database',
  });
}

async function openPglite(location: string, optimizeWasm = false): Promise<PGlite> {
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const warm = await takeWarmStart({ optimizeWasm });
    return await PGlite.create({ dataDir: location, ...warm, ...pgliteOptions(PGlite, { optimizeWasm }) });
  } catch (error) {
    throw new StoreError(
      `Could not open the PGlite database in ${location}: ${errorMessage(error)}. ` +
        'Check the folder is writable and holds a digest database, or pass another --data-dir.',
      { cause: error },
    );
  }
}

/** The store of a live `digest serve` holding the folder, through its socket; null when none is sharing it. */
async function openSharedStore(location: string, log: Logger | undefined): Promise<Store | null> {
  const share = await findShare(location);
  if (!share) return null;
  log?.info(
    `store: ${location} is held by digest serve (pid ${share.pid}); using its database through ${join(share.socketDir, SHARE_SOCKET)}`,
  );
  return openStoreOnDatabase({
    db: await postgresDatabase(shareUrl(share), log),
    options: { log, jobLock: 'process', share: () => Promise.reject(heldByServe(location, share)) },
    where: `the database of digest serve (pid ${share.pid}) in ${location}`,
    hint: 'Is digest serve still running? Try again, or stop it and retry.',
  });
}

async function openStoreOnDatabase({
  db,
  options,
  where,
  hint = '',
}: {
  db: Kysely<Database>;
  options: CreateStoreOptions;
  where: string;
  hint?: string;
}): Promise<Store> {
  try {
    await migrate(db, options.log);
    await pruneCache(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new StoreError(`Could not open ${where}: ${errorMessage(error)}. ${hint}`.trim(), { cause: error });
  }
  return createStore(db, options);
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
