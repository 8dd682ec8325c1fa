// A backup written at an older migration level: its rows are loaded into a scratch in-memory database at that
// level, migrated forward with the program's own migrations (as the data folder would have been), and read out again
// at this level for the real load. The target never holds a half-migrated schema.
import type { Kysely } from 'kysely';
import { type BackupLoad, loadRows, readSnapshot, type StoreSnapshot } from './_snapshot.js';
import { pgliteDatabase } from './database.js';
import { migrate, migrateTo } from './migrate.js';

export async function loadThroughOlderLevel<T>(
  input: BackupLoad,
  loadCurrent: (upgraded: BackupLoad) => Promise<T>,
): Promise<T> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({ dataDir: 'memory://' });
  const db = pgliteDatabase(pglite);
  try {
    await migrateTo(db, input.schema);
    const raw = db as unknown as Kysely<unknown>;
    await loadRows(raw, input);
    await migrate(db);
    return await readSnapshot(raw, raw, {
      fn: (snapshot: StoreSnapshot) =>
        loadCurrent({
          schema: snapshot.schema,
          tables: snapshot.tables,
          batches: snapshot.batches(),
          expected: snapshot.counts,
        }),
    });
  } finally {
    await db.destroy();
  }
}
