// The editor's desk: editors and their sessions, the editor's version of a text beside the generated one,
// per-week choices (item count, order), who decided what, approvals and an audit log of every desk action.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const SCHEMA = `
CREATE TABLE editors (
  id            serial PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Only a hash of the session token is kept: a leaked database holds no usable cookie.
CREATE TABLE editor_sessions (
  token_hash  text PRIMARY KEY,
  editor_id   integer NOT NULL REFERENCES editors (id) ON DELETE CASCADE,
  csrf_secret text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX editor_sessions_editor ON editor_sessions (editor_id);

-- One row per edited field; item_key '' holds the edition's title and intro. "edited" null: reverted to generated.
CREATE TABLE desk_edits (
  week       date NOT NULL,
  item_key   text NOT NULL,
  field      text NOT NULL CHECK (field IN ('summary', 'takeaways', 'level', 'title', 'intro')),
  generated  jsonb NOT NULL,
  edited     jsonb,
  version    integer NOT NULL,
  edited_by  text NOT NULL,
  edited_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (week, item_key, field)
);

ALTER TABLE decisions ADD COLUMN decided_by text;

CREATE TABLE desk_weeks (
  week        date PRIMARY KEY,
  item_count  integer CHECK (item_count IS NULL OR item_count BETWEEN 1 AND 50),
  item_order  jsonb,
  updated_by  text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE approvals (
  week        date PRIMARY KEY,
  approved_by text NOT NULL,
  approved_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE desk_audit (
  id       serial PRIMARY KEY,
  at       timestamptz NOT NULL DEFAULT now(),
  editor   text NOT NULL,
  action   text NOT NULL,
  week     date,
  item_key text,
  detail   jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX desk_audit_week ON desk_audit (week, id);
`;
