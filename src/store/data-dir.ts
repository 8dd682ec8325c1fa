// Guards for a PGlite data folder. One process at a time: PGlite has no server to arbitrate, and two processes
// writing one folder silently lose each other's writes (measured: two concurrent ingests of 4,000 items each left
// 4,000). And only a folder that is, or is becoming, a database: PGlite would otherwise write in among other files.
//
// The lock file names its holder (pid, host) and carries a heartbeat the holder refreshes every few seconds. A lock
// is stale when its process is gone (same host), or when it was written on another host (a restarted container,
// a shared folder) and its heartbeat stopped; a stale lock is taken over with a message.

import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../core/clock.js';
import { StoreError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';

export const LOCK_FILE = 'digest.lock';

/** How often the holder refreshes its heartbeat, and after how long without one a foreign lock is stale. */
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 60_000;

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  /** When the holder last said it is alive (ISO). Locks of release 0.1 have none: `since` stands in. */
  heartbeat: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export interface LockOptions {
  log?: Logger | undefined;
  heartbeatMs?: number;
  staleAfterMs?: number;
}

/** Lock files this process holds: a lock naming our pid that is not among them was left by an earlier process. */
const held = new Set<string>();

export async function lockDataDir(dir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const path = join(dir, LOCK_FILE);
  const staleAfter = options.staleAfterMs ?? STALE_AFTER_MS;
  const since = systemClock.now().toISOString();
  const holder = (): LockHolder => ({
    pid: process.pid,
    host: hostname(),
    since,
    heartbeat: systemClock.now().toISOString(),
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusive(path, JSON.stringify(holder()))) {
      return heldLock({ path, since, holder, options });
    }
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null) continue; // released in between: try again
    const current = parseHolder(text);
    const stale = current ? staleness(current, staleAfter, held.has(path)) : 'it is unreadable';
    if (!stale && current) {
      throw new StoreError(
        `The data folder ${dir} is in use by another digest process (pid ${current.pid} on ${current.host}, ` +
          `since ${current.since}, last heartbeat ${current.heartbeat}). Wait for it to finish or use another ` +
          `--data-dir; if no digest process is running there, delete ${path}.`,
      );
    }
    options.log?.warn(
      `store: took over the lock of ${dir}${current ? ` from pid ${current.pid} on ${current.host}` : ''}: ${stale}`,
    );
    // PGlite recovers the folder of a killed process; only the lock is left to remove.
    await rm(path, { force: true });
  }
  throw new StoreError(`Could not lock the data folder ${dir}: another process keeps taking it. Try again.`);
}

/** Creates `path` with `content` only if it does not exist, atomically: a reader never sees half a lock. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const partial = `${path}.${process.pid}.${randomUUID()}`;
  await writeFile(partial, content, { mode: 0o600 });
  try {
    await link(partial, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(partial, { force: true });
  }
}

function heldLock({
  path,
  since,
  holder,
  options,
}: {
  path: string;
  since: string;
  holder: () => LockHolder;
  options: LockOptions;
}): DataDirLock {
  held.add(path);
  const isMine = (text: string | null) => {
    const current = text === null ? null : parseHolder(text);
    return current?.pid === process.pid && current.host === hostname() && current.since === since;
  };
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = (async () => {
      if (!isMine(await readFile(path, 'utf8').catch(() => null))) {
        clearInterval(timer);
        options.log?.warn(
          `store: the lock ${path} was taken by another process; this one no longer holds it`,
        );
        return;
      }
      const partial = `${path}.${process.pid}.beat`;
      await writeFile(partial, JSON.stringify(holder()), { mode: 0o600 });
      await rename(partial, path);
    })().catch(() => {});
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  // The heartbeat never keeps the process alive on its own.
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await beating;
      held.delete(path);
      // Only our own lock: never a lock another process took over.
      if (isMine(await readFile(path, 'utf8').catch(() => null))) await rm(path, { force: true });
    },
  };
}

export function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return null;
    const since = String(value.since);
    return { pid: value.pid, host: value.host, since, heartbeat: String(value.heartbeat ?? since) };
  } catch {
    return null;
  }
}

/** Why a lock is stale, or null while its holder may still be alive. */
function staleness(holder: LockHolder, staleAfterMs: number, heldHere: boolean): string | null {
  if (holder.host === hostname()) {
    // Our own pid: this process holds it, or an earlier one had our pid (pid 1 in a restarted container).
    if (holder.pid === process.pid)
      return heldHere ? null : 'it was left by an earlier process with this pid';
    return processAlive(holder.pid) ? null : 'that process is gone';
  }
  // A process on another host cannot be asked: its heartbeat says whether it still runs.
  const beat = Date.parse(holder.heartbeat);
  const age = Date.now() - beat;
  if (Number.isNaN(beat)) return 'it was written on another host and carries no heartbeat';
  return age > staleAfterMs
    ? `it was written on another host and its heartbeat stopped ${Math.round(age / 1000)} s ago`
    : null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// What a PostgreSQL data folder holds (also while PGlite is still writing a new one), plus our lock and, while
// `digest serve` runs, its socket and share file (share-pglite.ts).
const DATA_DIR_ENTRY =
  /^(?:PG_VERSION|base|global|pg_[a-z_]+|pg_(?:hba|ident)\.conf|postgresql(?:\.auto)?\.conf|postmaster\.(?:pid|opts)|digest\.lock(?:\.\d+\.[\w-]+)?|digest\.serve\.json(?:\.[\w-]+)?|\.s\.PGSQL\.\d+)$/;

/** Refuses a folder that already holds other files: PGlite would write a database in among them. */
export async function assertDataDir(dir: string): Promise<void> {
  const foreign = (await readdir(dir)).filter((entry) => !DATA_DIR_ENTRY.test(entry));
  if (foreign.length) {
    throw new StoreError(
      `${dir} is not a digest data folder (it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}). ` +
        'Pass --data-dir with an empty or new folder.',
    );
  }
}
