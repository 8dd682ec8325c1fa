// Complaints apart from unsubscribes: a reader's spam report through the mail provider (POST
// /webhooks/bounce, type complaint) is recorded with its time on the reader's row, beside the unsubscribe it
// causes. The complaint stamps `complained_at` and `unsubscribed_at` with the same time in one statement, so "what
// followed an edition" (store/mail-outcomes.ts) counts it once, as a complaint, and not among the unsubscribes. No
// address or other data is added: the row is the reader's own, deleted with them. Rows from before this migration
// have no complaint time: their unsubscribes read as unsubscribes (a complaint was not told apart then).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
ALTER TABLE subscribers ADD COLUMN complained_at timestamptz;
`;
