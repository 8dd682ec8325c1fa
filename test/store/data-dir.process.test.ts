// The PGlite data folder: one process at a time (a lock with pid, host and heartbeat; stale locks taken over),
// private to its owner (0700 folders, 0600 files), made from the build's prepared empty database (initdb in a child
// process when that copy is missing), never taken for a database while half made.
import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import type { Logger } from '../../src/core/ports.js';
import { extractTarGz } from '../../src/store/_untar.js';
import { LOCK_FILE, lockDataDir, parseHolder } from '../../src/store/data-dir.js';
import { openStore } from '../../src/store/open-store.js';
import { EMPTY_DATABASE, isPrepared, prepareDataDir, whyUnusable } from '../../src/store/prepare-data-dir.js';
import { seedPgliteDataDir } from '../support/database.js';
import { sourceItem } from '../support/source-items.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-data-dir-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, debug() {}, warn: (message) => warnings.push(message) };
}

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

describe('the data-folder lock', () => {
  it('names its holder and refreshes its heartbeat until released', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir, { heartbeatMs: 20 });
    const first = parseHolder(await readFile(join(dir, LOCK_FILE), 'utf8'));
    expect(first).toMatchObject({ pid: process.pid, host: hostname() });
    await vi.waitFor(async () => {
      const now = parseHolder(await readFile(join(dir, LOCK_FILE), 'utf8'));
      expect(now?.heartbeat).not.toBe(first?.heartbeat);
      expect(now?.since).toBe(first?.since);
    });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock whose process is gone, saying so', async () => {
    const dir = await tempDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const heartbeat = new Date().toISOString();
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: gone, host: hostname(), since: heartbeat, heartbeat }),
    );
    const log = recordingLogger();
    const lock = await lockDataDir(dir, { log });
    cleanups.push(() => lock.release());
    expect(log.warnings).toEqual([
      `store: took over the lock of ${dir} from pid ${gone} on ${hostname()}: that process is gone`,
    ]);
    expect(parseHolder(await readFile(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(process.pid);
  });

  it('takes over a lock written on another host whose heartbeat stopped', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: 1, host: 'old-container', since: ago(3600), heartbeat: ago(90) }),
    );
    const log = recordingLogger();
    const lock = await lockDataDir(dir, { log });
    cleanups.push(() => lock.release());
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(
      /took over the lock of .* from pid 1 on old-container: it was written on another host and its heartbeat stopped 9\d s ago/,
    );
  });

  it('refuses a lock written on another host with a fresh heartbeat, naming pid and host', async () => {
    const dir = await tempDir();
    const lockText = JSON.stringify({ pid: 4242, host: 'other-host', since: ago(3600), heartbeat: ago(5) });
    await writeFile(join(dir, LOCK_FILE), lockText);
    await expect(lockDataDir(dir)).rejects.toThrow(
      /in use by another digest process \(pid 4242 on other-host/,
    );
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(lockText);
  });

  it('refuses a second holder in the same process and lets it in after release', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(new RegExp(`pid ${process.pid} on ${hostname()}`));
    await lock.release();
    const again = await lockDataDir(dir);
    await again.release();
  });
});

/** Entries under `dir` (itself included) that others may read. */
async function readableByOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (path: string) => {
    const stats = await lstat(path);
    if (stats.mode & 0o044) found.push(path);
    if (stats.isDirectory()) for (const entry of await readdir(path)) await visit(join(path, entry));
  };
  await visit(dir);
  return found;
}

describe('a private data folder', () => {
  it('is made from the prepared empty database, private to its owner, and stays private after use', async () => {
    const dataDir = join(await tempDir(), 'data');
    const log = recordingLogger();
    const store = await openStore({ dataDir, log });
    try {
      // The fallback (initdb) always warns: none here.
      expect(log.warnings).toEqual([]);
      expect(await readableByOthers(dataDir)).toEqual([]);
      await store.items.upsert([sourceItem()]);
    } finally {
      await store.close();
    }
    expect(await readableByOthers(dataDir)).toEqual([]);
    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    const reopened = await openStore({ dataDir });
    cleanups.push(() => reopened.close());
    expect(await reopened.items.candidates(editionWindow('2026-05-04'))).toHaveLength(1);
  }, 120_000);

  it('clears what a killed preparation left and makes the database', async () => {
    const dataDir = join(await tempDir(), 'data');
    await seedPgliteDataDir(dataDir);
    // As a kill mid-way leaves it: files moved in, PG_VERSION (moved last) not yet, scratch still there.
    await rm(join(dataDir, 'PG_VERSION'));
    await writeFile(join(dataDir, 'global', 'pg_control'), 'half written');
    expect(isPrepared(dataDir)).toBe(false);
    const store = await openStore({ dataDir });
    cleanups.push(() => store.close());
    await store.items.upsert([sourceItem()]);
    expect(await store.items.candidates(editionWindow('2026-05-04'))).toHaveLength(1);
  });

  it('is made with initdb in a child process, with a warning, when the prepared copy is missing', async () => {
    const dataDir = join(await tempDir(), 'data');
    const log = recordingLogger();
    await mkdir(dataDir);
    await prepareDataDir(dataDir, { log, emptyDatabase: join(dataDir, '..', 'missing.tar.gz') });
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain('no prepared empty database');
    expect(log.warnings[0]).toContain('npm run build');
    expect(isPrepared(dataDir)).toBe(true);
    const store = await openStore({ dataDir });
    cleanups.push(() => store.close());
    expect(await readableByOthers(dataDir)).toEqual([]);
  }, 120_000);

  it('uses the prepared copy only when this code can open it: same PGlite, no migration it lacks', async () => {
    const dir = await tempDir();
    expect(await whyUnusable(EMPTY_DATABASE)).toBeNull();
    const manifest = JSON.parse(await readFile(EMPTY_DATABASE.replace(/\.tar\.gz$/, '.json'), 'utf8'));
    const copy = async (name: string, changes: Record<string, unknown>) => {
      await writeFile(join(dir, `${name}.json`), JSON.stringify({ ...manifest, ...changes }));
      await writeFile(join(dir, `${name}.tar.gz`), await readFile(EMPTY_DATABASE));
      return join(dir, `${name}.tar.gz`);
    };
    // Older than the code: fine, the rest migrate on open.
    expect(await whyUnusable(await copy('older', { migrations: ['001-initial'] }))).toBeNull();
    expect(
      await whyUnusable(await copy('newer', { migrations: [...manifest.migrations, '999-future'] })),
    ).toMatch(/has migration 999-future, which this code lacks/);
    expect(await whyUnusable(await copy('other', { pglite: '0.0.1' }))).toMatch(/made by PGlite 0\.0\.1/);
  });

  it('refuses a truncated archive instead of leaving a half database', async () => {
    const dir = await tempDir();
    const truncated = join(dir, 'truncated.tar.gz');
    const { gunzipSync, gzipSync } = await import('node:zlib');
    const whole = gunzipSync(await readFile(EMPTY_DATABASE));
    await writeFile(truncated, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    await expect(extractTarGz(truncated, join(dir, 'out'))).rejects.toThrow(/truncated/);
  });

  it('opens a private folder without a walk or a warning; what PostgreSQL rewrote is private while open, the rest on close', async () => {
    const dataDir = join(await tempDir(), 'data');
    await seedPgliteDataDir(dataDir);
    await chmod(dataDir, 0o700);
    // As a killed run leaves one: loose, but inside a folder others cannot enter.
    await chmod(join(dataDir, 'pg_hba.conf'), 0o666);
    const log = recordingLogger();
    const store = await openStore({ dataDir, log });
    try {
      expect(log.warnings).toEqual([]);
      // PostgreSQL rewrites its relation-cache init files on every start, 0666 less the umask: tightened at once.
      expect(await readableByOthers(dataDir)).toEqual([join(dataDir, 'pg_hba.conf')]);
      expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    } finally {
      await store.close();
    }
    expect((await lstat(join(dataDir, 'pg_hba.conf'))).mode & 0o777).toBe(0o600);
    expect(await readableByOthers(dataDir)).toEqual([]);
  });

  it('tightens a loosened folder when it opens, saying how many files were readable', async () => {
    const dataDir = join(await tempDir(), 'data');
    await seedPgliteDataDir(dataDir);
    await chmod(dataDir, 0o777);
    await chmod(join(dataDir, 'pg_hba.conf'), 0o666);
    await chmod(join(dataDir, 'PG_VERSION'), 0o644);
    await chmod(join(dataDir, 'base'), 0o755);
    const log = recordingLogger();
    const store = await openStore({ dataDir, log });
    cleanups.push(() => store.close());
    expect(log.warnings).toEqual([`tightened permissions of ${dataDir}: 4 files were readable by others`]);
    expect(await readableByOthers(dataDir)).toEqual([]);
    expect((await lstat(join(dataDir, 'pg_hba.conf'))).mode & 0o777).toBe(0o600);
  });
});
