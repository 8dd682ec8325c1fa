// The short moment a backup holds the database: one REPEATABLE READ READ ONLY transaction that checks the schema's
// level and declares a WITH HOLD cursor per table; PostgreSQL sets the rows aside when it commits. Each statement
// sent on its own costs PGlite a turn of its session (and a socket a round trip) while writers wait, so the whole
// transaction goes as one script where the caller can send one, else the declarations as one statement list.
import { type Kysely, sql } from 'kysely';
import type { TableShape } from './_catalog.js';

/** Runs a script of several statements (simple protocol) holding the session; each statement's rows, in order. */
export type RunScript = (script: string) => Promise<Record<string, unknown>[][]>;

export interface HoldInput {
  tables: TableShape[];
  /** Cursor names start with it; the nth table's cursor ends in `_n`. */
  prefix: string;
  /** The level the catalog was read at: a store migrated since is refused. */
  schema: string;
  /** A pg connection: the declarations in one statement list (one round trip). */
  oneTrip?: boolean | undefined;
  script?: RunScript | undefined;
}

const LEVEL = sql`select coalesce(max(name), '') as name from kysely_migration`;

/** Declares the cursors in one snapshot and commits it; their names, in `tables` order. */
export async function holdSnapshot(db: Kysely<unknown>, input: HoldInput): Promise<string[]> {
  const cursors = input.tables.map((_table, index) => `${input.prefix}_${index}`);
  const declarations = input.tables.map((table, index) => {
    const columns = sql.join(table.columns.map((column) => sql.ref(column)));
    return sql`declare ${sql.id(cursors[index] as string)} no scroll cursor with hold for
      select ${columns} from ${sql.table(table.name)}`;
  });
  if (input.script) {
    const statements = [
      sql`start transaction isolation level repeatable read read only`,
      LEVEL,
      ...declarations,
    ];
    const text = [...statements.map((statement) => statement.compile(db).sql), 'commit'].join(';\n');
    const results = await input.script(text);
    if (String(results[1]?.[0]?.name ?? '') !== input.schema) {
      await closeCursors(db, cursors);
      throw migratedMeanwhile();
    }
    return cursors;
  }
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const { rows } = await LEVEL.$castTo<{ name: string }>().execute(tx);
      if ((rows[0]?.name ?? '') !== input.schema) throw migratedMeanwhile();
      if (input.oneTrip) await sql.join(declarations, sql`; `).execute(tx);
      else for (const declaration of declarations) await declaration.execute(tx);
    });
  return cursors;
}

export async function closeCursors(db: Kysely<unknown>, cursors: string[]): Promise<void> {
  for (const cursor of cursors) await sql`close ${sql.id(cursor)}`.execute(db).catch(() => {});
}

function migratedMeanwhile(): Error {
  return new Error('the store was migrated while the backup began');
}
