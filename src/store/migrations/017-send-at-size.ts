// Indexes for a list of a hundred thousand readers and more. `send_log_due`: the rows a send still has to mail, in
// subscriber order, and nothing else — a worker reserves its next batch by walking this small index, where the
// primary key made it step over every row already sent (each batch cost more than the one before, and the
// send's time grew with the square of the list). Rows leave it as they are sent, so it stays as small as the rest
// of the send. `send_log_first_mail`: when an edition's first mail was queued (what followed a mail is counted from
// then until the next edition's first mail), read from the index, not from every row of the edition.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE INDEX send_log_due ON send_log (edition_date, notice, subscriber_id) WHERE state IN ('queued', 'failed');
CREATE INDEX send_log_first_mail ON send_log (edition_date, notice, created_at);
`;
