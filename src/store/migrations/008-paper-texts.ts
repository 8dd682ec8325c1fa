// Papers read in full: one row per arXiv id and version, so a paper is fetched once per version and a
// rebuild reads it from here. status 'none' records that arXiv had no HTML rendering (PDF-only, withdrawn), so a
// rebuild does not ask again until the refresh age has passed. version 0: the page did not state one (ar5iv).
// Also: desk_edits accepts the field 'facts' (an editor's correction of the practitioner facts line).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
  await runScript(db, DESK_FACTS);
}

// An editor can correct an item's practitioner facts on the desk: one more editable field.
const DESK_FACTS = `
ALTER TABLE desk_edits DROP CONSTRAINT desk_edits_field_check;
ALTER TABLE desk_edits ADD CONSTRAINT desk_edits_field_check
  CHECK (field IN ('summary', 'takeaways', 'level', 'title', 'intro', 'facts'));
`;

const SCHEMA = `
CREATE TABLE paper_texts (
  arxiv_id   text NOT NULL,
  version    integer NOT NULL,
  status     text NOT NULL CHECK (status IN ('read', 'none')),
  url        text NOT NULL,
  note       text,
  body       jsonb,
  fetched_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (arxiv_id, version)
);
`;
