// Whether anything was written to the store since a moment: PostgreSQL's transaction id counter, read without
// taking an id. Every insert, update, delete or schema change (by any process on the database) takes the next id;
// reads take none. A rebuild compares marks to know that nothing it reads has changed (editions/build.ts).
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export interface ChangesPort {
  /** The id the next writing transaction will take: it moves with every write and with nothing else. */
  mark(): Promise<string>;
}

export function changesStore(db: Kysely<Database>): ChangesPort {
  return {
    async mark() {
      const { rows } = await sql<{
        next: string;
      }>`SELECT txid_snapshot_xmax(txid_current_snapshot())::text AS next`.execute(db);
      return rows[0]?.next ?? '';
    },
  };
}
