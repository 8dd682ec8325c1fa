// Every row of every table, read the same way from two stores, to hold a restore equal to its source.
import { type Kysely, sql } from 'kysely';

/** Table → its rows as JSON text, sorted (timestamps to the millisecond, as a backup keeps them). */
export async function everyRow(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%' order by 1`.execute(db);
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    all[name] = rows.map((row) => JSON.stringify(row, int8AsText)).sort();
  }
  return all;
}

/** int8 reads as text through pg and as a number (or bigint) through PGlite: compared as text. */
function int8AsText(key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  return key === 'id' && typeof value === 'number' ? String(value) : value;
}
