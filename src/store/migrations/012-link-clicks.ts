// Counted links: what readers clicked, as counts per (edition, revision, item, channel, day) that name no
// reader — no subscriber id, address, IP or user agent — and, only in the operator's opt-in per-reader mode, one
// row per reader and item (first click kept), deleted with the reader, who can turn it off for themselves
// (subscriber_preferences.count_my_clicks). No foreign key to editions: a count is written in a batch after the
// redirect answered, and one row naming a vanished edition must not sink the batch. No CHECK on the counts: a
// scanner found out after its first fetches were counted moves them over as (clicks -1, prefetched +1), which a
// CHECK on the proposed row would refuse; the sum is kept at zero or more.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE link_clicks (
  edition_date  date NOT NULL,
  revision      integer NOT NULL CHECK (revision >= 1),
  item_key      text NOT NULL,
  channel       text NOT NULL CHECK (channel IN ('mail', 'site')),
  day           date NOT NULL,
  clicks        integer NOT NULL DEFAULT 0,
  prefetched    integer NOT NULL DEFAULT 0,
  PRIMARY KEY (edition_date, revision, item_key, channel, day)
);

CREATE TABLE reader_clicks (
  edition_date   date NOT NULL,
  revision       integer NOT NULL CHECK (revision >= 1),
  item_key       text NOT NULL,
  channel        text NOT NULL CHECK (channel IN ('mail', 'site')),
  subscriber_id  integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  clicked_at     timestamptz NOT NULL,
  PRIMARY KEY (edition_date, revision, item_key, channel, subscriber_id)
);
CREATE INDEX reader_clicks_subscriber ON reader_clicks (subscriber_id);

ALTER TABLE subscriber_preferences ADD COLUMN count_my_clicks boolean NOT NULL DEFAULT true;
`;
