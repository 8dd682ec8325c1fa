// What several `digest serve` instances on one PostgreSQL database share besides the data: which site generation
// is current (each instance writes the site into its own folder from the store, and watches this counter to know
// when to write it again), the rate limits' buckets (so N instances give a client one limit, not N), and which
// scheduled runs were claimed (so a slot runs once, on one instance). Buckets are UNLOGGED: cheap to write, and a
// crash that empties them only forgets some limits early.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE site_generations (
  generation bigserial PRIMARY KEY,
  week text NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNLOGGED TABLE rate_limit_buckets (
  key text PRIMARY KEY,
  credit double precision NOT NULL,
  updated_at double precision NOT NULL,
  full_at double precision NOT NULL,
  allowed boolean NOT NULL
);
CREATE INDEX rate_limit_buckets_full_at ON rate_limit_buckets (full_at);

CREATE TABLE scheduled_runs (
  job text NOT NULL,
  slot text NOT NULL,
  instance text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (job, slot)
);
`;
