// Per-reader clicks arrive in `reader_clicks_incoming` first: no key, no index, no foreign key, so writing a burst
// of readers' clicks (a list's worth after a send) costs only the rows themselves, where each row of reader_clicks,
// with its two indexes, its key to subscribers and its check against earlier clicks, costs many times more; on
// PGlite that work holds the thread that answers the redirects. `digest serve`'s click counter then folds them into
// reader_clicks in short slices (store/reader-clicks-incoming.ts): the reader's first click kept, a removed reader's
// or one who turned counting off skipped. Until then every read of reader rows reads both tables.
//
// The same checks as reader_clicks, so a row the fold could never move is refused when it is written.
//
// A removed reader's incoming rows go with them (statement trigger over the rows each DELETE removed, so removing
// many readers is one pass); a row written by a flush that was still open then is skipped by the fold.
import { type Kysely, sql } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
  // One statement whose body holds semicolons: not for runScript.
  await sql.raw(FORGET_INCOMING).execute(db);
  await runScript(db, TRIGGERS);
}

const SCHEMA = `
CREATE TABLE reader_clicks_incoming (
  edition_date   date NOT NULL,
  revision       integer NOT NULL CHECK (revision >= 1),
  item_key       text NOT NULL,
  channel        text NOT NULL CHECK (channel IN ('mail', 'site')),
  subscriber_id  integer NOT NULL,
  clicked_at     timestamptz NOT NULL
);
`;

// "OR REPLACE": a database emptied table by table keeps its functions.
const FORGET_INCOMING = `
CREATE OR REPLACE FUNCTION reader_clicks_incoming_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM reader_clicks_incoming AS i USING old_rows AS gone WHERE i.subscriber_id = gone.id;
  RETURN NULL;
END $$`;

const TRIGGERS = `
CREATE TRIGGER reader_clicks_incoming_forget AFTER DELETE ON subscribers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION reader_clicks_incoming_forget();
`;
