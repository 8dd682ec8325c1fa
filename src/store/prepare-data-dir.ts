// A new PGlite data folder starts as a copy of the empty, migrated database the build prepared
// (dist/empty-db.tar.gz, see scripts/empty-db.mjs): no initdb at run time, whose ~800 MB peak a small machine does
// not have. Migrations newer than that copy run when the store opens, as for any folder. Without the copy (a build
// that could not make it, another PGlite version) the folder is made as before, with a warning: initdb and
// migrations in a short-lived child process, so the process that then works in it never carries initdb's memory.
// Either way the files land in a scratch folder inside the data folder and are moved in with PG_VERSION last, so
// a folder without PG_VERSION is never a half database.
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorMessage, StoreError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { extractTarGz } from './_untar.js';
import { LOCK_FILE } from './data-dir.js';
import { migrationNames } from './migrate.js';

const SCRATCH = 'pg_digest_prepare';

export function isPrepared(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/** The build's copy of an empty database (the same place from dist/store and src/store); beside it, what made it. */
export const EMPTY_DATABASE = fileURLToPath(new URL('../../dist/empty-db.tar.gz', import.meta.url));

export interface PrepareOptions {
  log?: Logger | undefined;
  /** Another prepared copy (tests); its manifest is the same name ending in .json. */
  emptyDatabase?: string;
}

/** Makes `dir` (empty but for our lock, or left half-prepared) a migrated PGlite database. */
export async function prepareDataDir(dir: string, options: PrepareOptions = {}): Promise<void> {
  const { log, emptyDatabase = EMPTY_DATABASE } = options;
  // Leftovers of a preparation that was killed: not a database (no PG_VERSION), safe to clear.
  for (const entry of await readdir(dir)) {
    if (!entry.startsWith(LOCK_FILE)) await rm(join(dir, entry), { recursive: true, force: true });
  }
  const scratch = join(dir, SCRATCH);
  const copied = await copyEmptyDatabase(emptyDatabase, scratch).catch((error: unknown) => {
    return `could not unpack ${emptyDatabase} (${errorMessage(error)})`;
  });
  if (copied !== true) {
    log?.warn(
      `store: ${copied}; creating the database with initdb instead (slower, and its process peaks near 800 MB). ` +
        'Run `npm run build` to make the prepared copy.',
    );
    await rm(scratch, { recursive: true, force: true });
    await runChild(scratch);
  }
  const entries = (await readdir(scratch)).sort(
    (a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'),
  );
  for (const entry of entries) await rename(join(scratch, entry), join(dir, entry));
  await rm(scratch, { recursive: true, force: true });
}

/** True when the prepared copy was unpacked into `target`; else why it could not be used. */
async function copyEmptyDatabase(archive: string, target: string): Promise<true | string> {
  const unusable = await whyUnusable(archive);
  if (unusable) return unusable;
  await extractTarGz(archive, target);
  return true;
}

/** Why the prepared copy at `archive` cannot start a data folder for this code, or null when it can. */
export async function whyUnusable(archive: string): Promise<string | null> {
  const manifest = await readFile(archive.replace(/\.tar\.gz$/, '.json'), 'utf8').catch(() => null);
  if (manifest === null || !existsSync(archive)) return `no prepared empty database at ${archive}`;
  const made = JSON.parse(manifest) as { pglite?: string; migrations?: string[] };
  const running = await pgliteVersion();
  // The files are PGlite's own format: a copy made by another version is not trusted.
  if (made.pglite !== running)
    return `the prepared empty database was made by PGlite ${made.pglite}, this is ${running}`;
  // Older than the code is fine (the rest migrate on open); a migration this code lacks would refuse to open.
  const known = new Set(migrationNames());
  const unknown = (made.migrations ?? []).filter((name) => !known.has(name));
  if (unknown.length) return `the prepared empty database has migration ${unknown[0]}, which this code lacks`;
  return null;
}

async function pgliteVersion(): Promise<string> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@electric-sql/pglite');
  const text = await readFile(join(entry, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

async function runChild(target: string): Promise<void> {
  // Loaded here: a command that opens a prepared folder (every one but the first) never starts a child.
  const { spawn } = await import('node:child_process');
  const here = fileURLToPath(import.meta.url);
  // From sources (tsx, tests) the child is a .ts file; from dist/ (a chunk) the .js module.
  const extension = extname(here) === '.ts' ? '.ts' : '.js';
  // Up and into store/: the same folder from src/store/, from dist/cli/ and from dist/chunks/ (scripts/build.mjs).
  const script = join(here, '..', '..', 'store', `_prepare-data-dir-child${extension}`);
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
