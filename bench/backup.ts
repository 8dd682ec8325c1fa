// Backup and restore of an embedded store with 20,000 readers, each with a sent mail (40,000 rows besides the
// sample rows of every migration level): the backup's wall time, how long its snapshot held the database (on PGlite
// the longest any write waits for a backup), the file's size and the restore's wall time. In-process PGlite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import { checkBackupFile, restoreBackup, takeBackup } from '../src/backup/index.js';
import { systemClock } from '../src/core/clock.js';
import { pgliteDatabase } from '../src/store/database.js';
import { openStoreFromPglite } from '../src/store/open-store.js';
import { seedUpTo } from '../test/support/level-rows.js';

const READERS = 20_000;
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

export async function benchBackup(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-backup-'));
  const pglite = await PGlite.create({ dataDir: 'memory://' });
  const source = await openStoreFromPglite(pglite);
  const target = await openStoreFromPglite(await PGlite.create({ dataDir: 'memory://' }));
  try {
    await seedReaders(pgliteDatabase(pglite, { ownsDatabase: false }) as unknown as Kysely<unknown>);
    const file = join(dir, 'bench.ndjson.gz');
    const taken = await takeBackup({ store: source, clock: systemClock, log: quiet }, { file });
    const started = performance.now();
    await restoreBackup({ store: target, clock: systemClock, log: quiet }, await checkBackupFile(file));
    return {
      'rows backed up': Object.values(taken.counts).reduce((sum, count) => sum + count, 0),
      'backup wall ms': taken.ms,
      'snapshot held the database ms': taken.heldMs,
      'backup file KB': Math.round(taken.bytes / 1024),
      'restore wall ms (checked first)': Math.round(performance.now() - started),
    };
  } finally {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seedReaders(db: Kysely<unknown>): Promise<void> {
  await seedUpTo(db, '999');
  await sql`insert into subscribers (address, mailbox, status, confirmed_at)
    select 'reader' || g || '@example.com', 'reader' || g || '@example.com', 'confirmed', now()
    from generate_series(1, ${READERS}) g`.execute(db);
  await sql`insert into send_log (edition_date, subscriber_id, state, attempts, smtp_response)
    select '2026-04-27', id, 'sent', 1, '250 OK' from subscribers where address like 'reader%'`.execute(db);
}
