// What was mailed stays on record: each send-log row names the revision of the edition its reader was sent, and
// a correction notice is a row of its own (`notice` = the revision it announces; 0 is the edition itself), so a
// notice goes at most once per reader per revision through the same reservation and hand-over as every send.
// Rows written before this migration are mails of revision 1 (no edition was corrected before it).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
ALTER TABLE send_log ADD COLUMN revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1);
ALTER TABLE send_log ADD COLUMN notice integer NOT NULL DEFAULT 0 CHECK (notice = 0 OR notice >= 2);
ALTER TABLE send_log DROP CONSTRAINT send_log_pkey;
ALTER TABLE send_log ADD PRIMARY KEY (edition_date, notice, subscriber_id);
DROP INDEX send_log_pending;
CREATE INDEX send_log_pending ON send_log (edition_date, notice, state, subscriber_id);
`;
