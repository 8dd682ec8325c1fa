// Guards for a PGlite data folder. One process at a time: PGlite has no server to arbitrate, and two processes
// writing one folder silently lose each other's writes (measured: two concurrent ingests of 4,000 items each left
// 4,000). And only a folder that is, or is becoming, a database: PGlite would otherwise write in among other files.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../core/errors.js';

export const LOCK_FILE = 'digest.lock';

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const path = join(dir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, mine, { flag: 'wx' });
      return {
        async release() {
          // Only our own lock: never a lock another process took over.
          if ((await readFile(path, 'utf8').catch(() => '')) === mine) await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = parseHolder(await readFile(path, 'utf8').catch(() => ''));
    if (holder && stillHeld(holder)) {
      throw new StoreError(
        `The data folder ${dir} is in use by another digest process (pid ${holder.pid} on ${holder.host} since ` +
          `${holder.since}). Wait for it to finish or use another --data-dir; if no digest process is running, ` +
          `delete ${path}.`,
      );
    }
    // Left by a process that is gone (killed, crashed): PGlite recovers the folder, the lock is taken over.
    await rm(path, { force: true });
  }
  throw new StoreError(`Could not lock the data folder ${dir}: another process keeps taking it. Try again.`);
}

function parseHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? { pid: value.pid, host: value.host, since: String(value.since) }
      : null;
  } catch {
    return null;
  }
}

function stillHeld(holder: Holder): boolean {
  // A process on another machine (shared folder) cannot be checked: assume it is alive.
  if (holder.host !== hostname() || holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// What a PostgreSQL data folder holds (also while PGlite is still writing a new one), plus our lock.
const DATA_DIR_ENTRY =
  /^(?:PG_VERSION|base|global|pg_[a-z_]+|pg_(?:hba|ident)\.conf|postgresql(?:\.auto)?\.conf|postmaster\.(?:pid|opts))$/;

/** Refuses a folder that already holds other files: PGlite would write a database in among them. */
export async function assertDataDir(dir: string): Promise<void> {
  const foreign = (await readdir(dir)).filter((entry) => entry !== LOCK_FILE && !DATA_DIR_ENTRY.test(entry));
  if (foreign.length) {
    throw new StoreError(
      `${dir} is not a digest data folder (it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}). ` +
        'Pass --data-dir with an empty or new folder.',
    );
  }
}
