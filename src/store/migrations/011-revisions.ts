// Published is immutable: every revision of an edition kept whole (its body as readers had it, who published it,
// when and why), so a correction adds revision 2 (3, …) instead of overwriting what was mailed. Every edition
// already published becomes its own revision 1.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE edition_revisions (
  edition_date  date NOT NULL REFERENCES editions (date) ON DELETE CASCADE,
  revision      integer NOT NULL CHECK (revision >= 1),
  body          jsonb NOT NULL,
  editor        text,
  reason        text,
  published_at  timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (edition_date, revision)
);

INSERT INTO edition_revisions (edition_date, revision, body, published_at)
SELECT date, 1, body, published_at FROM editions WHERE published_at IS NOT NULL;
`;
