// The outbox: every mail a request causes (a confirmation, a welcome) is a row written in the same
// transaction as the request, delivered by a worker in `digest serve`, and marked sent only once the SMTP server
// has accepted it. A subscriber's generation counts its subscriptions: a confirm link carries it, so a link issued
// before an unsubscribe cannot confirm the next subscription.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
ALTER TABLE subscribers ADD COLUMN generation integer NOT NULL DEFAULT 1;

CREATE TABLE outbox (
  id               bigserial PRIMARY KEY,
  kind             text NOT NULL CHECK (kind IN ('confirmation', 'welcome')),
  subscriber_id    integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  generation       integer NOT NULL,
  state            text NOT NULL DEFAULT 'queued'
                   CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'uncertain', 'skipped')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  claimed_by       text,
  claimed_at       timestamptz,
  handed_over_at   timestamptz,
  failure          text CHECK (failure IN ('temporary', 'permanent')),
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state IN ('queued', 'sending');
CREATE INDEX outbox_subscriber ON outbox (subscriber_id, id);
`;
