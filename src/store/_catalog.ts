// What a backup reads and a restore writes, from the database's own catalog rather than schema.ts: a backup made at
// an older migration level has that level's tables and columns, and both ends must agree on them.
import { type Kysely, sql } from 'kysely';

/** A table as a backup holds it: its stored columns (generated ones are computed again on restore). */
export interface TableShape {
  name: string;
  columns: string[];
}

/**
 * Tables the database keeps itself from other tables' rows (triggers, migration 020): a restore's rows rebuild them,
 * so a backup neither reads nor writes them.
 */
export const DERIVED_TABLES: readonly string[] = ['send_log_sent'];

/** The application's tables, parents before children (foreign keys), each with its stored columns. */
export async function tableShapes(db: Kysely<unknown>): Promise<TableShape[]> {
  const { rows } = await sql<{ table: string; column: string }>`
    select c.relname as "table", a.attname as "column"
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname not like 'kysely_migration%'
      and a.attgenerated = ''
    order by c.relname, a.attnum`.execute(db);
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    if (!DERIVED_TABLES.includes(row.table))
      columns.set(row.table, [...(columns.get(row.table) ?? []), row.column]);
  }
  const { rows: links } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint k
    join pg_class child on child.oid = k.conrelid
    join pg_class parent on parent.oid = k.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where k.contype = 'f' and n.nspname = current_schema()`.execute(db);
  return parentsFirst([...columns.keys()], links).map((name) => ({ name, columns: columns.get(name) ?? [] }));
}

function parentsFirst(tables: string[], links: { child: string; parent: string }[]): string[] {
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const link of links) if (link.child === table && link.parent !== table) visit(link.parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return ordered;
}

/** Row counts of `tables`, read in the caller's transaction (or snapshot). */
export async function tableCounts(db: Kysely<unknown>, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(table)}`.execute(
      db,
    );
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** The last migration applied, or null before the first. */
export async function schemaLevel(db: Kysely<unknown>): Promise<string | null> {
  try {
    const { rows } = await sql<{ name: string }>`
      select name from kysely_migration order by name desc limit 1`.execute(db);
    return rows[0]?.name ?? null;
  } catch {
    return null;
  }
}

/** Serial and identity columns start after the largest id restored, so the next insert does not collide. */
export async function resetSequences(db: Kysely<unknown>, tables: TableShape[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns) {
      const { rows } = await sql<{ sequence: string | null }>`
        select pg_get_serial_sequence(${sql.lit(quoteIdent(table.name))}, ${column}) as sequence`.execute(db);
      const sequence = rows[0]?.sequence;
      if (!sequence) continue;
      await sql`select setval(${sequence}::regclass,
        coalesce((select max(${sql.ref(column)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(db);
    }
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
