// Backups of a running store, and the moves they make possible, with the real processes:
// - `digest backup` (its own process) while the real `digest serve` holds the PGlite folder and writes keep landing
//   through its socket: every write is wholly in the file or wholly after it, none waits long, and `digest restore`
//   into a new folder gives every count of the snapshot;
// - PostgreSQL → PGlite → PostgreSQL through backup and restore, every row equal;
// - a database written at each migration level on PostgreSQL opens with every row;
// - two instances on one PostgreSQL database back up a scheduled slot once.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBackupFile, runBackupSlot } from '../../src/backup/index.js';
import { systemClock } from '../../src/core/clock.js';
import { pgliteDatabase, postgresDatabase } from '../../src/store/database.js';
import { migrate, migrateTo, migrationNames } from '../../src/store/migrate.js';

import { openStore } from '../../src/store/open-store.js';
import { findShare, shareUrl } from '../../src/store/share-pglite.js';
import { expectLevelKept, seedLevel } from '../store/level-upgrade.js';
import { runDigest } from '../support/cli.js';
import { createPostgresDatabase, seedPgliteDataDir, storeDatabases } from '../support/database.js';
import { seedUpTo } from '../support/level-rows.js';
import { startServe } from '../support/serve.js';
import { everyRow } from '../support/store-rows.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'digest.js');
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-backup-e2e-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** `digest …` as its own process (bin/digest.js); its exit code and output. */
function digestProcess(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const env = { ...process.env, ...options.env };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** A PGlite folder holding every level's rows and `readers` more confirmed readers, each with a sent mail. */
async function seededFolder(dataDir: string, readers: number): Promise<void> {
  await seedPgliteDataDir(dataDir);
  const pglite = await PGlite.create({ dataDir });
  const db = pgliteDatabase(pglite) as unknown as Kysely<unknown>;
  await seedUpTo(db, '999');
  await sql`insert into subscribers (address, mailbox, status, confirmed_at)
    select 'reader' || g || '@example.com', 'reader' || g || '@example.com', 'confirmed', now() from generate_series(1, ${readers}) g`.execute(
    db,
  );
  await sql`insert into send_log (edition_date, subscriber_id, state, attempts, smtp_response)
    select '2026-04-27', id, 'sent', 1, '250 OK' from subscribers where address like 'reader%'`.execute(db);
  await db.destroy();
}

describe('a backup while digest serve runs', () => {
  it('holds every write wholly or not at all, keeps writers waiting briefly, and restores every count', async () => {
    const cwd = await tempDir();
    await seededFolder(join(cwd, 'data'), 20_000);
    const served = await startServe({ cwd, site: 'site', dataDir: 'data' });
    cleanups.push(async () => {
      if (served.child.exitCode === null) served.child.kill('SIGKILL');
      await served.exited;
    });
    const share = await findShare(join(cwd, 'data'));
    expect(share).not.toBeNull();
    const writer = await postgresDatabase(shareUrl(share!));
    cleanups.push(() => writer.destroy());

    // A reader subscribes and is mailed, and a click is counted, in one transaction each round, until the backup ends.
    let running = true;
    let rounds = 0;
    let slowest = 0;
    const writes = (async () => {
      while (running) {
        const started = performance.now();
        await writer.transaction().execute(async (tx) => {
          const { rows } = await sql<{ id: number }>`insert into subscribers (address, mailbox, status)
            values (${`during${rounds}@example.com`}, ${`during${rounds}@example.com`}, 'confirmed') returning id`.execute(
            tx,
          );
          await sql`insert into send_log (edition_date, subscriber_id, state) values ('2026-04-27', ${rows[0]!.id}, 'sent')`.execute(
            tx,
          );
          await sql`update link_clicks set clicks = clicks + 1`.execute(tx);
        });
        slowest = Math.max(slowest, performance.now() - started);
        rounds++;
      }
    })();
    const started = performance.now();
    const taken = await digestProcess(['backup', 'store.ndjson.gz', '--data-dir', 'data'], { cwd });
    const backupMs = performance.now() - started;
    running = false;
    await writes;
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(/held by digest serve/);
    expect(rounds).toBeGreaterThan(0);
    console.info(taken.stdout.trim().slice(0, 300));
    console.info(
      `backup of ${20_000} readers while serving: ${Math.round(backupMs)} ms; ${rounds} writes, slowest ${Math.round(slowest)} ms`,
    );
    // The writes' bound here is loose (two cores shared by every test); the figure is printed above.
    expect(slowest).toBeLessThan(2_000);

    const checked = await checkBackupFile(join(cwd, 'store.ndjson.gz'));
    const counts = checked.trailer.counts;
    // Whole rounds only: as many mails in the send log as readers written during the backup, and clicks to match.
    const during = (counts.subscribers ?? 0) - 6 - 20_000;
    expect(counts.send_log).toBe(7 + 20_000 + during);
    expect(during).toBeGreaterThanOrEqual(0);

    const restored = await digestProcess(['restore', 'store.ndjson.gz', '--data-dir', 'restored'], { cwd });
    expect(restored.code, restored.stderr).toBe(0);
    const pglite = await PGlite.create({ dataDir: join(cwd, 'restored') });
    const db = pgliteDatabase(pglite) as unknown as Kysely<unknown>;
    cleanups.push(() => db.destroy());
    const { rows } = await sql<{ clicks: number }>`select clicks from link_clicks`.execute(db);
    expect(rows[0]?.clicks).toBe(12 + during);
    const { rows: readers } = await sql<{ n: string }>`select count(*)::text as n from subscribers`.execute(
      db,
    );
    expect(Number(readers[0]?.n)).toBe(counts.subscribers);

    // A second restore into the now full folder is refused.
    const again = await digestProcess(['restore', 'store.ndjson.gz', '--data-dir', 'data'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/not empty/);
  }, 240_000);
});

const postgres = storeDatabases().find((database) => database.kind === 'postgresql');

describe.skipIf(postgres?.skip !== null)('on PostgreSQL', () => {
  async function seededPostgres(level?: string) {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const db = await postgresDatabase(database.url);
    cleanups.push(() => db.destroy());
    if (level) await migrateTo(db, level);
    else await migrate(db);
    return { url: database.url, db: db as unknown as Kysely<unknown> };
  }

  it('moves a store from PostgreSQL to PGlite and back, every row equal', async () => {
    const cwd = await tempDir();
    const source = await seededPostgres();
    await seedUpTo(source.db, '999');
    const out = await runDigest(['backup', 'from-pg.ndjson.gz'], { cwd, env: { DATABASE_URL: source.url } });
    expect(out.code, out.stderr).toBe(0);
    const into = await runDigest(['restore', 'from-pg.ndjson.gz', '--data-dir', 'moved'], { cwd });
    expect(into.code, into.stderr).toBe(0);
    const pglite = await PGlite.create({ dataDir: join(cwd, 'moved') });
    const moved = pgliteDatabase(pglite) as unknown as Kysely<unknown>;
    const inPglite = await everyRow(moved);
    await moved.destroy();
    expect(inPglite).toEqual(await everyRow(source.db));

    const back = await runDigest(['backup', 'from-pglite.ndjson.gz', '--data-dir', 'moved'], { cwd });
    expect(back.code, back.stderr).toBe(0);
    const target = await createPostgresDatabase();
    cleanups.push(() => target.drop());
    const restored = await runDigest(['restore', 'from-pglite.ndjson.gz'], {
      cwd,
      env: { DATABASE_URL: target.url },
    });
    expect(restored.code, restored.stderr).toBe(0);
    const targetDb = await postgresDatabase(target.url);
    cleanups.push(() => targetDb.destroy());
    expect(await everyRow(targetDb as unknown as Kysely<unknown>)).toEqual(inPglite);
  }, 180_000);

  for (const level of migrationNames()) {
    it(`keeps every row of a database written at level ${level}`, async () => {
      const { url, db } = await seededPostgres(level);
      const before = await seedLevel(db, level);
      const store = await openStore({ databaseUrl: url });
      try {
        await expectLevelKept(store, level, before);
      } finally {
        await store.close();
      }
    }, 60_000);
  }

  it('backs up a scheduled slot once with two instances on one database', async () => {
    const dir = await tempDir();
    const { url, db } = await seededPostgres();
    await seedUpTo(db, '999');
    const one = await openStore({ databaseUrl: url });
    const two = await openStore({ databaseUrl: url });
    cleanups.push(() => one.close());
    cleanups.push(() => two.close());
    const slot = new Date('2026-05-01T03:00:00Z');
    const results = await Promise.all(
      [one, two].map((store) =>
        runBackupSlot({ store, clock: systemClock, log: quiet }, { dir, keep: 3 }, slot),
      ),
    );
    expect(results.filter((result) => result === 'done')).toHaveLength(1);
    expect(results.filter((result) => result !== 'done')[0]).toMatch(/locked|done elsewhere/);
    expect(await readdir(dir)).toEqual(['digest-backup-20260501T030000Z.ndjson.gz']);
  }, 60_000);
});
