// The first schema. Never edit a released migration: add the next numbered file instead.
import { type Kysely, sql } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A database made before Kysely's migrator (release 0.1) recorded this schema as version 1 in its own table.
  if (await legacyVersion(db, 1)) return;
  await runScript(db, SCHEMA);
}

/** Whether the pre-Kysely bookkeeping (schema_migrations) records `version`. */
export async function legacyVersion(db: Kysely<unknown>, version: number): Promise<boolean> {
  const { rows } = await sql<{
    found: boolean;
  }>`SELECT to_regclass('schema_migrations') IS NOT NULL AS found`.execute(db);
  if (!rows[0]?.found) return false;
  const recorded = await sql`SELECT 1 FROM schema_migrations WHERE version = ${version}`.execute(db);
  return recorded.rows.length > 0;
}

const SCHEMA = `
CREATE TABLE items (
  key            text PRIMARY KEY,
  canonical_url  text NOT NULL UNIQUE,
  arxiv_id       text UNIQUE,
  url            text NOT NULL,
  title          text NOT NULL DEFAULT '',
  text           text NOT NULL DEFAULT '',
  authors        jsonb NOT NULL DEFAULT '[]',
  image          text,
  published_at   timestamptz NOT NULL,
  upvotes        integer,
  citations      integer,
  primary_source text NOT NULL,
  sources        jsonb NOT NULL DEFAULT '[]',
  manual_week    date,
  manual_note    text,
  first_seen_at  timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX items_published_at ON items (published_at);
CREATE INDEX items_manual_week ON items (manual_week) WHERE manual_week IS NOT NULL;

CREATE TABLE source_state (
  source_id  text PRIMARY KEY,
  state      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE editions (
  date         date PRIMARY KEY,
  name         text NOT NULL,
  title        text NOT NULL,
  item_count   integer NOT NULL,
  body         jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);

-- Which items an edition featured; no foreign key to items, an edition is a snapshot.
CREATE TABLE edition_items (
  date     date NOT NULL REFERENCES editions (date) ON DELETE CASCADE,
  key      text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (date, key)
);
CREATE INDEX edition_items_key ON edition_items (key);

CREATE TABLE decisions (
  week       date NOT NULL,
  item_key   text NOT NULL,
  decision   text NOT NULL CHECK (decision IN ('pin', 'skip')),
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (week, item_key)
);
CREATE INDEX decisions_item_key ON decisions (item_key);

CREATE TABLE cache (
  namespace  text NOT NULL,
  key        text NOT NULL,
  value      jsonb NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (namespace, key)
);

CREATE TABLE ingest_runs (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at  timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  sources     jsonb NOT NULL
);
`;
