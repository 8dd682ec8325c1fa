// A migration's SQL script, one statement at a time: PGlite's query() takes one statement with parameters.
// Scripts hold plain DDL; a statement ends with ';' at the end of a line (no function bodies in them).
import { type Kysely, sql } from 'kysely';

export async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  const statements = script
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
  for (const statement of statements) await sql.raw(statement).execute(db);
}
