// The desk's list of readers and imports with consent. A reader added or imported as confirmed without their own
// click on a confirmation link carries who asserted their consent and when (an editor's address, or the operator's
// `cli:<user>`), so the list can show it for as long as the reader stays. The list pages newest first by id within a
// filter: status has (status, id) since 002; a language filter joins the preferences, whose (language,
// subscriber_id) index lets PostgreSQL walk one language in id order instead of reading every reader; the
// complaint filter reads a partial index that holds only readers who complained (few, so it stays small). A search
// by address is a substring match, checked row by row along the same id order: with 100,000 readers that is a
// sequential pass of a few tens of milliseconds, cheaper than a trigram index PGlite does not ship.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
ALTER TABLE subscribers ADD COLUMN consent_by text;
ALTER TABLE subscribers ADD COLUMN consent_at timestamptz;
CREATE INDEX subscriber_preferences_language ON subscriber_preferences (language, subscriber_id);
CREATE INDEX subscribers_complained ON subscribers (id) WHERE complained_at IS NOT NULL;
`;
