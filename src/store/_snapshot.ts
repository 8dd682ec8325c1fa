// The rows behind a backup and a restore (see backup.ts): one snapshot read through WITH HOLD cursors, and one
// transaction that writes rows back with jsonb_populate_recordset, the database doing every type conversion.
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { resetSequences, schemaLevel, type TableShape, tableCounts, tableShapes } from './_catalog.js';
import { closeCursors, holdSnapshot, type RunScript } from './_snapshot-hold.js';
import { tablePages } from './_table-pages.js';

/** Rows of one table, as plain JSON values (timestamps as ISO text, jsonb as its value). */
export interface RowBatch {
  table: string;
  rows: Record<string, unknown>[];
}

/** A consistent read of every table, open while the callback given to `read` runs. */
export interface StoreSnapshot {
  /** The last migration the snapshot's schema has. */
  schema: string;
  tables: TableShape[];
  /** Rows per table, counted as `batches()` reads them: whole once it has been read to the end. */
  counts: Record<string, number>;
  /** How long the snapshot transaction held the database (on PGlite, the longest a writer waited for it), ms. */
  heldMs: number;
  /** Each table's rows, in `tables` order, in batches. */
  batches(): AsyncGenerator<RowBatch>;
}

export interface BackupLoad {
  /** The migration level the rows were written at; older ones go through a scratch database migrated forward. */
  schema: string;
  tables: TableShape[];
  batches: AsyncIterable<RowBatch>;
  /** The count per table the rows must come to; a difference rolls the whole load back. */
  expected: Record<string, number>;
}

export async function readSnapshot<T>(
  db: Kysely<unknown>,
  fetchOn: Kysely<unknown>,
  options: {
    skip?: string[];
    /**
     * Tables read after the snapshot, a page per statement, in their key's order: caches, whose rows need not agree
     * with the others', so their size never adds to the time writers wait. No other table may refer to them.
     */
    unheld?: string[];
    batchRows?: number;
    /** Sends the snapshot's transaction as one script (one turn of PGlite's session, one trip on a connection). */
    script?: RunScript | undefined;
    fn: (snapshot: StoreSnapshot) => Promise<T>;
  },
): Promise<T> {
  const skip = new Set(options.skip ?? []);
  const batchRows = options.batchRows ?? 500;
  const prefix = `digest_backup_${randomUUID().replaceAll('-', '')}`;
  // The catalog is read before the snapshot, so the transaction that holds the database does no more than declare.
  const schema = (await schemaLevel(db)) ?? '';
  const all = (await tableShapes(db)).filter((table) => !skip.has(table.name));
  const unheldNames = new Set(options.unheld ?? []);
  const held = all.filter((table) => !unheldNames.has(table.name));
  const unheld = all.filter((table) => unheldNames.has(table.name));
  const tables = [...held, ...unheld];
  const began = performance.now();
  const cursors = await holdSnapshot(db, {
    tables: held,
    prefix,
    schema,
    script: options.script,
  });
  const heldMs = Math.round(performance.now() - began);
  const counts: Record<string, number> = Object.fromEntries(tables.map((table) => [table.name, 0]));
  const batches = async function* (): AsyncGenerator<RowBatch> {
    for (const [index, table] of held.entries()) {
      const cursor = cursors[index] as string;
      for (;;) {
        const { rows } = await sql<
          Record<string, unknown>
        >`fetch ${sql.lit(batchRows)} from ${sql.id(cursor)}`.execute(fetchOn);
        counts[table.name] = (counts[table.name] ?? 0) + rows.length;
        if (rows.length) yield { table: table.name, rows };
        if (rows.length < batchRows) break;
      }
    }
    for (const table of unheld) {
      for await (const rows of tablePages(fetchOn, table, batchRows)) {
        counts[table.name] = (counts[table.name] ?? 0) + rows.length;
        yield { table: table.name, rows };
      }
    }
  };
  try {
    return await options.fn({ schema, tables, counts, heldMs, batches });
  } finally {
    await closeCursors(fetchOn, cursors);
  }
}

export async function loadRows(db: Kysely<unknown>, input: BackupLoad): Promise<Record<string, number>> {
  return db.transaction().execute(async (tx) => {
    const shapes = new Map(input.tables.map((table) => [table.name, table]));
    for await (const batch of input.batches) {
      const shape = shapes.get(batch.table);
      if (!shape) throw new Error(`the backup holds rows of a table it does not list: ${batch.table}`);
      const columns = sql.join(shape.columns.map((column) => sql.ref(column)));
      await sql`insert into ${sql.table(shape.name)} (${columns}) overriding system value
        select ${columns} from jsonb_populate_recordset(null::${sql.table(shape.name)}, ${JSON.stringify(batch.rows, jsonValue)}::jsonb)`.execute(
        tx,
      );
    }
    await resetSequences(tx, input.tables);
    const counts = await tableCounts(
      tx,
      input.tables.map((table) => table.name),
    );
    const differ = Object.keys(input.expected).filter((table) => counts[table] !== input.expected[table]);
    if (differ.length) {
      const detail = differ.map((table) => `${table} ${counts[table] ?? 0} of ${input.expected[table]}`);
      throw new Error(`the restored rows do not add up (${detail.join(', ')}); nothing was restored`);
    }
    return counts;
  });
}

/** JSON of a row's values: int8 (read as bigint by PGlite) as its digits. */
export function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
