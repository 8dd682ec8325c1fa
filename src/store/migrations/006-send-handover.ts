// When the terminating dot of a mail was released to the SMTP server (see mail/smtp-pool.ts). A row found
// "sending" without it after a crash was never delivered (a server keeps no mail without its final dot) and is
// queued again; one with it is the only kind that stays uncertain.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE send_log ADD COLUMN handed_over_at timestamptz;');
}
