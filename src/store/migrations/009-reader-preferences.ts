// Each reader their edition: what a reader chose (language, topics, levels) beside their subscriber row, deleted with
// it (ON DELETE CASCADE); and an edition's translations, one row per edition and language, the generated text and
// the editor's edits kept apart so a new translation never overwrites an edit.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE subscriber_preferences (
  subscriber_id   integer PRIMARY KEY REFERENCES subscribers (id) ON DELETE CASCADE,
  language        text,
  topics          jsonb NOT NULL DEFAULT '[]',
  levels          jsonb NOT NULL DEFAULT '[]',
  only_my_topics  boolean NOT NULL DEFAULT false,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE edition_translations (
  edition_date  date NOT NULL REFERENCES editions (date) ON DELETE CASCADE,
  language      text NOT NULL,
  generated     jsonb NOT NULL,
  edited        jsonb,
  warnings      jsonb NOT NULL DEFAULT '[]',
  writer        text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (edition_date, language)
);
`;
