// The short moment a backup holds the database: one REPEATABLE READ READ ONLY transaction that checks the schema's
// level and declares a WITH HOLD cursor per table; PostgreSQL sets the rows aside when it commits. Each statement
// sent on its own costs PGlite a turn of its session (and a socket a round trip) while writers wait, so the whole
// transaction goes as one script: one turn, one trip.
import { type Kysely, sql } from 'kysely';
import type { TableShape } from './_catalog.js';

/** Runs a script of several statements (simple protocol) holding the session. */
export type RunScript = (script: string) => Promise<void>;

export interface HoldInput {
  tables: TableShape[];
  /** Cursor names start with it; the nth table's cursor ends in `_n`. */
  prefix: string;
  /** The level the catalog was read at: a store migrated since is refused. */
  schema: string;
  /** How to send a script; without one, each statement goes on its own. */
  script?: RunScript | undefined;
}

const MIGRATED = 'the store was migrated while the backup began';

/** Declares the cursors in one snapshot and commits it; their names, in `tables` order. */
export async function holdSnapshot(db: Kysely<unknown>, input: HoldInput): Promise<string[]> {
  const cursors = input.tables.map((_table, index) => `${input.prefix}_${index}`);
  const declarations = input.tables.map((table, index) => {
    const columns = sql.join(table.columns.map((column) => sql.ref(column)));
    return sql`declare ${sql.id(cursors[index] as string)} no scroll cursor with hold for
      select ${columns} from ${sql.table(table.name)}`;
  });
  if (input.script) {
    // The level is checked inside the snapshot by the database itself, so the script needs no answer back.
    const guard = sql.raw(`do $digest_backup$ begin
      if coalesce((select max(name) from kysely_migration), '') <> ${quote(input.schema)} then
        raise exception '${MIGRATED}';
      end if;
    end $digest_backup$`);
    const statements = [
      sql`start transaction isolation level repeatable read read only`,
      guard,
      ...declarations,
    ];
    await input.script([...statements.map((statement) => statement.compile(db).sql), 'commit'].join(';\n'));
    return cursors;
  }
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const { rows } = await sql<{ name: string }>`
        select coalesce(max(name), '') as name from kysely_migration`.execute(tx);
      if ((rows[0]?.name ?? '') !== input.schema) throw new Error(MIGRATED);
      for (const declaration of declarations) await declaration.execute(tx);
    });
  return cursors;
}

export async function closeCursors(db: Kysely<unknown>, cursors: string[]): Promise<void> {
  for (const cursor of cursors) await sql`close ${sql.id(cursor)}`.execute(db).catch(() => {});
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
