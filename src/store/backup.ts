// The whole store read at one moment, and written back into an empty one: what `digest backup` and `digest restore`
// stand on. The read is one REPEATABLE READ snapshot whose rows are held by WITH HOLD cursors: PostgreSQL
// materialises them when the short snapshot transaction commits, so a write waits at most for that (PGlite is one
// session) and never lands half in the backup; the rows are then fetched in batches, each its own statement, while
// the server's writes go on between them. On a pool the cursors live on one connection, held for the whole read.
// The cache is read after the snapshot, a page at a time: it need not agree with the rest, so it never adds to a wait.
import { type Kysely, sql } from 'kysely';
import { schemaLevel, tableCounts, tableShapes } from './_catalog.js';
import { type BackupLoad, loadRows, readSnapshot, type StoreSnapshot } from './_snapshot.js';
import type { RunScript } from './_snapshot-hold.js';
import { loadThroughOlderLevel } from './backup-upgrade.js';
import { scripts } from './database.js';
import { migrationNames } from './migrate.js';
import type { Database } from './schema.js';

export type { TableShape } from './_catalog.js';
export type { BackupLoad, RowBatch, StoreSnapshot } from './_snapshot.js';
export { jsonValue } from './_snapshot.js';

export interface BackupPort {
  /**
   * Reads every table (but `skip`) in one snapshot, except `unheld` ones (caches), read after it a page at a time;
   * the snapshot closes when `fn` settles.
   */
  read<T>(
    options: { skip?: string[]; unheld?: string[]; batchRows?: number },
    fn: (snapshot: StoreSnapshot) => Promise<T>,
  ): Promise<T>;
  /** Tables holding any row: a restore writes only into an empty store. */
  nonEmptyTables(): Promise<string[]>;
  /** Writes the rows in one transaction (identities continued after them); the counts now stored, per table. */
  load(input: BackupLoad): Promise<Record<string, number>>;
  /** The migrations this program knows, oldest first. */
  migrations(): Promise<string[]>;
}

/** `embedded`: an in-process PGlite, whose one session must not be held between batches. */
export function backupStore(db: Kysely<Database>, session: 'embedded' | 'pool'): BackupPort {
  const raw = db as unknown as Kysely<unknown>;
  return {
    read: (options, fn) =>
      session === 'embedded'
        ? readSnapshot(raw, raw, { ...options, script: scripts(db) ?? undefined, fn })
        : raw
            .connection()
            .execute((connection) =>
              readSnapshot(connection, connection, { ...options, script: simpleQuery(connection), fn }),
            ),
    async nonEmptyTables() {
      const tables = await tableShapes(raw);
      const counts = await tableCounts(
        raw,
        tables.map((table) => table.name),
      );
      return Object.keys(counts).filter((table) => (counts[table] ?? 0) > 0);
    },
    async load(input) {
      const current = await schemaLevel(raw);
      if (input.schema === current) return loadRows(raw, input);
      return loadThroughOlderLevel(input, (upgraded) => loadRows(raw, upgraded));
    },
    migrations: async () => migrationNames(),
  };
}

/** A script over a pg connection: with no parameters pg sends it as one simple query, several statements in one trip. */
function simpleQuery(connection: Kysely<unknown>): RunScript {
  return async (script) => {
    try {
      await sql.raw(script).execute(connection);
    } catch (error) {
      // A statement that failed inside the script's transaction leaves it open and aborted on this connection.
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
  };
}
