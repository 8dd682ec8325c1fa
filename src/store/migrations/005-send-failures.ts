// Why a send-log row failed: 'temporary' (4xx, no connection, timeout: a later run tries again) or 'permanent'
// (5xx or an address that cannot be mailed: never retried).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE send_log ADD COLUMN failure text CHECK (failure IN ('temporary', 'permanent'));`,
  );
}
