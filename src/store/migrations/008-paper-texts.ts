// Papers read in full (issue 23): one row per arXiv id and version, so a paper is fetched once per version and a
// rebuild reads it from here. status 'none' records that arXiv had no HTML rendering (PDF-only, withdrawn), so a
// rebuild does not ask again until the refresh age has passed. version 0: the page did not state one (ar5iv).
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

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
