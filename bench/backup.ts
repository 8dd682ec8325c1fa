// Backup and restore of an embedded store (a PGlite folder) with 20,000 readers, each with a sent mail (40,000 rows
// besides the sample rows of every migration level):
// - in process, as `digest serve` runs its scheduled backup: a write is due every 20 ms (a reader subscribes, the send
//   records a mail, a click flush lands) while the backup runs; the longest any write took from when it was due to
//   its commit (a database or event loop held by the backup counts), beside the same writes as long with no backup
//   (on a busy machine that alone can pass the target; compare the two), and how long the snapshot held the
//   database, also per 100,000 rows held (the hold grows with the rows, not the cache);
// - `digest backup` and `digest restore` as users run them, each its own process: wall time and the whole process
//   tree's peak RSS (bench/_tree-rss-report.mjs), so what the commands hold is measured apart from this harness.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import { takeBackup } from '../src/backup/index.js';
import { systemClock } from '../src/core/clock.js';
import { pgliteDatabase } from '../src/store/database.js';
import { openStore, openStoreFromPglite } from '../src/store/open-store.js';
import { pgliteOptions } from '../src/store/pglite-options.js';
import type { Store } from '../src/store/types.js';
import { seedUpTo } from '../test/support/level-rows.js';

const READERS = 20_000;
const WRITE_EVERY_MS = 20;
const BIN = join(import.meta.dirname, '..', 'bin', 'digest.js');
const PRELOAD = join(import.meta.dirname, '_tree-rss-report.mjs');
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

export async function benchBackup(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-backup-'));
  try {
    const dataDir = join(dir, 'data');
    // Opened once by the program, so the folder starts from its prepared empty database (no initdb here).
    await (await openStore({ dataDir })).close();
    const pglite = await PGlite.create({ dataDir, ...pgliteOptions(PGlite) });
    const store = await openStoreFromPglite(pglite);
    const db = pgliteDatabase(pglite, { ownsDatabase: false }) as unknown as Kysely<unknown>;
    let inProcess: Record<string, number>;
    try {
      await seedReaders(db);
      const during = await writesDuring(store, db, () =>
        takeBackup({ store, clock: systemClock, log: quiet }, { file: join(dir, 'in-process.ndjson.gz') }),
      );
      const taken = during.result;
      // The same writes for as long with no backup: what the machine alone makes them wait.
      const idle = await writesDuring(store, db, () => waitFor(taken.ms));
      const heldRows = Object.entries(taken.counts)
        .filter(([table]) => table !== 'cache')
        .reduce((sum, [, count]) => sum + count, 0);
      inProcess = {
        'rows backed up': heldRows,
        'longest write wait during the backup ms (due → committed)': during.longestMs,
        'longest write wait with no backup ms (same writes, as long)': idle.longestMs,
        'write wait p99 during the backup ms': during.p99Ms,
        'write wait p99 with no backup ms': idle.p99Ms,
        'writes during the backup': during.writes,
        'snapshot held the database ms': taken.heldMs,
        'snapshot held per 100,000 rows ms': Math.round((taken.heldMs * 100_000) / heldRows),
        'backup wall ms (in process, writes going on)': taken.ms,
      };
    } finally {
      await store.close();
    }
    const backup = await digest(['backup', 'store.ndjson.gz', '--data-dir', 'data'], dir);
    const restore = await digest(['restore', 'store.ndjson.gz', '--data-dir', 'restored'], dir);
    return {
      ...inProcess,
      '`digest backup` wall ms': backup.ms,
      '`digest backup` process tree peak MB': backup.treeMb,
      '`digest restore` wall ms (checked first)': restore.ms,
      '`digest restore` process tree peak MB': restore.treeMb,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes due every WRITE_EVERY_MS while `work` runs, none waiting for another; the longest from due to commit. */
async function writesDuring<T>(
  store: Store,
  db: Kysely<unknown>,
  work: () => Promise<T>,
): Promise<{ result: T; longestMs: number; p99Ms: number; writes: number }> {
  const started = performance.now();
  const waits: Promise<number>[] = [];
  let done = false;
  const issuing = (async () => {
    for (let index = 0; !done; index++) {
      const due = started + index * WRITE_EVERY_MS;
      const ahead = due - performance.now();
      if (ahead > 0) await waitFor(ahead);
      waits.push(oneWrite(store, db, `${Math.round(started)}-${index}`).then(() => performance.now() - due));
    }
  })();
  const result = await work().finally(() => {
    done = true;
  });
  await issuing;
  const all = (await Promise.all(waits)).sort((a, b) => a - b);
  const p99 = all[Math.min(all.length - 1, Math.floor(all.length * 0.99))] ?? 0;
  return { result, longestMs: Math.round(all.at(-1) ?? 0), p99Ms: Math.round(p99), writes: all.length };
}

/** In turn: a reader subscribes; the send confirms and mails one (one transaction); a click flush counts a click. */
async function oneWrite(store: Store, db: Kysely<unknown>, name: string): Promise<void> {
  const kind = Number(name.split('-')[1]) % 3;
  const address = `${name}@example.com`;
  if (kind === 0) {
    await store.subscribers.request(address, address);
  } else if (kind === 1) {
    await db.transaction().execute(async (tx) => {
      const { rows } = await sql<{
        id: number;
      }>`insert into subscribers (address, mailbox, status, confirmed_at)
        values (${address}, ${address}, 'confirmed', now()) returning id`.execute(tx);
      await sql`insert into send_log (edition_date, subscriber_id, state, attempts, smtp_response)
        values ('2026-04-27', ${rows[0]?.id}, 'sent', 1, '250 OK')`.execute(tx);
    });
  } else {
    const click = {
      edition: '2026-04-27',
      revision: 1,
      itemKey: 'arxiv:2604.00001',
      channel: 'mail' as const,
    };
    await store.clicks.add([{ ...click, day: '2026-04-27', clicks: 1, prefetched: 0 }], []);
  }
}

function waitFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `digest …` as a user runs it (the compiled CLI); its wall time and its process tree's peak RSS. */
async function digest(args: string[], cwd: string): Promise<{ ms: number; treeMb: number }> {
  const report = join(cwd, `.tree-${args[0]}`);
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(),
    DIGEST_BENCH_TREE_FILE: report,
    DATABASE_URL: '',
  };
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = Math.round(performance.now() - started);
  if (code !== 0) throw new Error(`digest ${args.join(' ')} exited ${code}:\n${stderr}`);
  const lines = readFileSync(report, 'utf8').trim().split('\n').filter(Boolean);
  return { ms, treeMb: lines.reduce((sum, line) => sum + Number(line.split(' ')[1]), 0) };
}

async function seedReaders(db: Kysely<unknown>): Promise<void> {
  await seedUpTo(db, '999');
  await sql`insert into subscribers (address, mailbox, status, confirmed_at)
    select 'reader' || g || '@example.com', 'reader' || g || '@example.com', 'confirmed', now()
    from generate_series(1, ${sql.lit(READERS)}) g`.execute(db);
  await sql`insert into send_log (edition_date, subscriber_id, state, attempts, smtp_response)
    select '2026-04-27', id, 'sent', 1, '250 OK' from subscribers where address like 'reader%'`.execute(db);
}
