// Indexes for a list of a hundred thousand readers and a million click rows. `send_log_reader`: one reader's rows
// by reader, then edition. The send log's key starts with the edition, so without it every look-up by reader
// walked a whole edition's rows or the whole log: the mail a reader was sent before (asked as each mail of a send
// starts, so each mail cost more as the list grew), the reader's page and export on the desk, and the rows that
// go with a removed reader.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE INDEX send_log_reader ON send_log (subscriber_id, edition_date);
`;
