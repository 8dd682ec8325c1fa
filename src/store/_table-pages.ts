// A table read a page at a time in its primary key's order, each page its own short statement: for tables whose rows
// need not agree with the rest of a snapshot (a cache), so reading them never holds the database.
import { type Kysely, sql } from 'kysely';
import type { TableShape } from './_catalog.js';

export async function* tablePages(
  db: Kysely<unknown>,
  table: TableShape,
  pageRows: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const key = await primaryKey(db, table.name);
  if (!key.length) throw new Error(`${table.name} has no primary key to read it by pages`);
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const order = sql.join(key.map((column) => sql.ref(column)));
  let after: unknown[] | null = null;
  for (;;) {
    const from = after ? sql`where (${order}) > (${sql.join(after.map((value) => sql`${value}`))})` : sql``;
    const { rows } = await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table.name)}
      ${from} order by ${order} limit ${sql.lit(pageRows)}`.execute(db);
    if (rows.length) yield rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = key.map((column) => last[column]);
  }
}

async function primaryKey(db: Kysely<unknown>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`
    select a.attname as "column"
    from pg_index i
    join pg_class c on c.oid = i.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
    where i.indisprimary and c.relname = ${table} and n.nspname = current_schema()
    order by k.position`.execute(db);
  return rows.map((row) => row.column);
}
