// Readers and the send log. A subscriber row holds the address and its status, nothing else about the person;
// removing a subscriber deletes their send-log rows too (ON DELETE CASCADE).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE subscribers (
  id                        serial PRIMARY KEY,
  address                   text NOT NULL UNIQUE,
  mailbox                   text NOT NULL,
  status                    text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'bounced')),
  bounces                   integer NOT NULL DEFAULT 0,
  created_at                timestamptz NOT NULL DEFAULT now(),
  updated_at                timestamptz NOT NULL DEFAULT now(),
  confirmed_at              timestamptz,
  unsubscribed_at           timestamptz,
  confirmation_sent_at      timestamptz
);
CREATE INDEX subscribers_status ON subscribers (status, id);
CREATE INDEX subscribers_mailbox ON subscribers (mailbox);

CREATE TABLE send_log (
  edition_date   date NOT NULL,
  subscriber_id  integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  state          text NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'uncertain', 'skipped')),
  attempts       integer NOT NULL DEFAULT 0,
  smtp_response  text,
  message_id     text,
  claimed_by     text,
  claimed_at     timestamptz,
  next_attempt_at timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (edition_date, subscriber_id)
);
CREATE INDEX send_log_pending ON send_log (edition_date, state, subscriber_id);
`;
