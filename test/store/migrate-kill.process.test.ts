// A migration killed half-way (SIGKILL while the last of a run's migrations is applying, the earlier ones of the run
// already applied in its transaction) leaves the folder as it was: it reopens at its old level with its rows, and this
// program then migrates it as if nothing had happened.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteDatabase } from '../../src/store/database.js';
import { migrateTo } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { seedPgliteDataDir } from '../support/database.js';
import { expectLevelKept, seedLevel } from './level-upgrade.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'migrate-kill-child.ts');
const LEVEL = '010-canonical-mailbox';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder at LEVEL holding that level's rows; the counts per table. */
async function folderAtLevel(dataDir: string): Promise<Record<string, number>> {
  await seedPgliteDataDir(dataDir);
  const pglite = await PGlite.create({ dataDir });
  const db = pgliteDatabase(pglite, { ownsDatabase: false });
  const { rows } = await pglite.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
  );
  await pglite.exec(`DROP TABLE ${rows.map((row) => row.name).join(', ')} CASCADE`);
  await pglite.exec('DELETE FROM kysely_migration');
  await migrateTo(db, LEVEL);
  const before = await seedLevel(db as unknown as Kysely<unknown>, LEVEL);
  await db.destroy();
  await pglite.close();
  return before;
}

function migrateAndKill(dataDir: string): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('inside')) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) =>
      signal
        ? resolve(signal)
        : reject(new Error(`the child exited ${code} before it was killed: ${stderr}`)),
    );
  });
}

describe('a migration killed half-way', () => {
  it('leaves the folder at its old level with every row, and it migrates cleanly after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-migrate-kill-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const dataDir = join(dir, 'data');
    const before = await folderAtLevel(dataDir);
    expect(await migrateAndKill(dataDir)).toBe('SIGKILL');

    const reopened = await PGlite.create({ dataDir });
    const applied = await reopened.query<{ name: string }>('SELECT max(name) AS name FROM kysely_migration');
    const tables = await reopened.query<{ present: string | null; half: string | null }>(
      `SELECT to_regclass('edition_revisions')::text AS present, to_regclass('half_done')::text AS half`,
    );
    await reopened.close();
    expect(applied.rows[0]?.name).toBe(LEVEL);
    // Migration 011 ran in the killed transaction: its table is not there, nor the never-ending one's.
    expect(tables.rows[0]).toEqual({ present: null, half: null });

    const store = await openStore({ dataDir });
    try {
      await expectLevelKept(store, LEVEL, before);
    } finally {
      await store.close();
    }
  }, 120_000);
});
