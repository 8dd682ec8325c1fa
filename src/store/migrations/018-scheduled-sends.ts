// Sends set for a later time ("Send at…" on the desk, `digest send --at`): kept in the database, so a restart of
// `digest serve` still performs them, and any instance on a shared PostgreSQL database may. A row moves
// scheduled → started (claimed by the one instance whose UPDATE … WHERE state = 'scheduled' matched) → done, or
// scheduled → cancelled. One week has at most one send waiting: the partial unique index.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE scheduled_sends (
  id bigserial PRIMARY KEY,
  edition text NOT NULL,
  send_at timestamptz NOT NULL,
  time_zone text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL DEFAULT 'scheduled' CHECK (state IN ('scheduled', 'started', 'cancelled', 'done')),
  instance text,
  started_at timestamptz,
  finished_at timestamptz,
  outcome jsonb
);
CREATE UNIQUE INDEX scheduled_sends_one_waiting ON scheduled_sends (edition) WHERE state = 'scheduled';
CREATE INDEX scheduled_sends_due ON scheduled_sends (send_at) WHERE state = 'scheduled';
`;
