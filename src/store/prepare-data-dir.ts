// A new PGlite data folder is made in a short-lived child process (initdb + migrations), so the process that
// then works in it never carries initdb's memory. The child writes into a scratch folder inside the data folder;
// its entries are moved in with PG_VERSION last, so a folder without PG_VERSION is never a half database.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StoreError } from '../core/errors.js';
import { LOCK_FILE } from './data-dir.js';

const SCRATCH = 'pg_digest_prepare';

export function isPrepared(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/** Makes `dir` (empty but for our lock, or left half-prepared) a migrated PGlite database. */
export async function prepareDataDir(dir: string): Promise<void> {
  // Leftovers of a preparation that was killed: not a database (no PG_VERSION), safe to clear.
  for (const entry of await readdir(dir)) {
    if (!entry.startsWith(LOCK_FILE)) await rm(join(dir, entry), { recursive: true, force: true });
  }
  const scratch = join(dir, SCRATCH);
  await runChild(scratch);
  const entries = (await readdir(scratch)).sort(
    (a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'),
  );
  for (const entry of entries) await rename(join(scratch, entry), join(dir, entry));
  await rm(scratch, { recursive: true, force: true });
}

function runChild(target: string): Promise<void> {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  const script = join(here, '..', `_prepare-data-dir-child${extension}`);
  // Run from sources (tsx, tests): the child needs the same loader.
  const loader =
    extension === '.ts'
      ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
      : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...loader, script, target], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new StoreError(
            `Could not create a database in ${target}: the preparing process ended with ${signal ?? `code ${code}`}` +
              `${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
          ),
        );
    });
  });
}
