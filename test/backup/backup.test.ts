// A backup of a store restores into an empty one with every row equal; a damaged, foreign or newer file and a
// non-empty target are refused before anything is written; a backup of an older schema is migrated forward.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBackupFile, restoreBackup, takeBackup } from '../../src/backup/index.js';
import { systemClock } from '../../src/core/clock.js';
import { ConfigError } from '../../src/core/errors.js';
import { createStore } from '../../src/store/create-store.js';
import { pgliteDatabase } from '../../src/store/database.js';
import { migrateTo } from '../../src/store/migrate.js';
import { openStoreFromPglite } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { freshPglite } from '../support/database.js';
import { seedUpTo } from '../support/level-rows.js';
import { everyRow } from '../support/store-rows.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/** A store on its own PGlite, and the database under it for reading rows. */
async function pgliteStore(): Promise<{ store: Store; db: Kysely<unknown> }> {
  const pglite = await freshPglite();
  const store = await openStoreFromPglite(pglite);
  const db = pgliteDatabase(pglite, { ownsDatabase: false }) as unknown as Kysely<unknown>;
  cleanups.push(() => store.close());
  return { store, db };
}

async function tempFile(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-backup-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, name);
}

const deps = (store: Store) => ({ store, clock: systemClock, log: quiet });

describe('backup and restore', () => {
  it('restores every row of every table into an empty store, identities continued', async () => {
    const source = await pgliteStore();
    await seedUpTo(source.db, '999');
    const file = await tempFile('store.ndjson.gz');
    const taken = await takeBackup(deps(source.store), { file, cache: true });
    expect(taken.counts.subscribers).toBe(6);
    const target = await pgliteStore();
    const restored = await restoreBackup(deps(target.store), await checkBackupFile(file));
    expect(restored.counts).toEqual(taken.counts);
    expect(await everyRow(target.db)).toEqual(await everyRow(source.db));
    // A row added after the restore gets the next id, not one a restored row has.
    const { rows } = await sql<{ id: number }>`insert into subscribers (address, mailbox, status)
      values ('new@example.com', 'new@example.com', 'pending') returning id`.execute(target.db);
    expect(rows[0]?.id).toBe(7);
  }, 60_000);

  it('leaves the cache out with cache: false', async () => {
    const source = await pgliteStore();
    await seedUpTo(source.db, '999');
    const file = await tempFile('store.ndjson.gz');
    const taken = await takeBackup(deps(source.store), { file, cache: false });
    expect(Object.keys(taken.counts)).not.toContain('cache');
    const checked = await checkBackupFile(file);
    expect(checked.header.tables.map((table) => table.name)).not.toContain('cache');
  }, 60_000);

  it('refuses a damaged file, a newer schema and a store that is not empty, before writing anything', async () => {
    const source = await pgliteStore();
    await seedUpTo(source.db, '999');
    const file = await tempFile('store.ndjson.gz');
    await takeBackup(deps(source.store), { file });
    const text = gunzipSync(await readFile(file)).toString('utf8');

    const edited = await tempFile('edited.ndjson.gz');
    await writeFile(edited, gzipSync(text.replace('confirmed@example.com', 'attacker@example.com')));
    await expect(checkBackupFile(edited)).rejects.toThrow(/checksum does not match/);

    const cut = await tempFile('cut.ndjson.gz');
    await writeFile(cut, gzipSync(text.split('\n').slice(0, 3).join('\n')));
    await expect(checkBackupFile(cut)).rejects.toThrow(ConfigError);

    const newer = await tempFile('newer.ndjson.gz');
    const lines = text.trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '{}');
    lines[0] = JSON.stringify({ ...header, schema: '999-from-the-future' });
    const { createHash } = await import('node:crypto');
    const body = `${lines.slice(0, -1).join('\n')}\n`;
    const trailer = {
      ...JSON.parse(lines.at(-1) ?? '{}'),
      sha256: createHash('sha256').update(body).digest('hex'),
    };
    await writeFile(newer, gzipSync(`${body}${JSON.stringify(trailer)}\n`));
    const target = await pgliteStore();
    await expect(restoreBackup(deps(target.store), await checkBackupFile(newer))).rejects.toThrow(
      /newer digest/,
    );

    await expect(restoreBackup(deps(source.store), await checkBackupFile(file))).rejects.toThrow(/not empty/);
    expect(await target.store.backup.nonEmptyTables()).toEqual([]);
  }, 60_000);

  it('restores a backup made at an older schema, migrated forward on the way', async () => {
    const { pglite, db } = await olderDatabase('009-reader-preferences');
    await seedUpTo(db, '009-reader-preferences');
    // The store as it was, not opened (opening migrates): its groups over the old schema.
    const old = createStore(pgliteDatabase(pglite, { ownsDatabase: false }), { session: 'embedded' });
    const file = await tempFile('old.ndjson.gz');
    const taken = await takeBackup(deps(old), { file });
    expect(taken.schema).toBe('009-reader-preferences');
    const target = await pgliteStore();
    const restored = await restoreBackup(deps(target.store), await checkBackupFile(file));
    expect(restored.migratedFrom).toBe('009-reader-preferences');
    expect(restored.counts.subscribers).toBe(taken.counts.subscribers);
    expect(restored.counts.send_log).toBe(taken.counts.send_log);
    // Migration 011 gives every published edition its first revision.
    expect(restored.counts.edition_revisions).toBe(2);
    expect(await target.store.subscribers.count()).toMatchObject({
      pending: 1,
      confirmed: 1,
      unsubscribed: 1,
      bounced: 1,
    });
  }, 60_000);
});

/** A database migrated up to `level` only. */
async function olderDatabase(level: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({ dataDir: 'memory://' });
  const db = pgliteDatabase(pglite, { ownsDatabase: false });
  cleanups.push(() => pglite.close());
  await migrateTo(db, level);
  return { pglite, db: db as unknown as Kysely<unknown> };
}
