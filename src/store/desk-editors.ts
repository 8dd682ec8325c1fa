// Editors of the desk and their sessions. A session row holds a hash of the cookie's token, never the token.
import type { Kysely } from 'kysely';
import { bindQueries } from './_bind.js';
import { isoTimestamp } from './_values.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

export interface Editor {
  id: number;
  email: string;
  createdAt: string;
}

/** A live session (not revoked, not expired) and whose it is. */
export interface EditorSession {
  editorId: number;
  email: string;
  csrfSecret: string;
  expiresAt: string;
}

/** Editors of the desk and their sessions. */
export interface EditorsPort {
  /** null when the address is already an editor. */
  add(email: string, passwordHash: string): Promise<Editor | null>;
  credentials(email: string): Promise<{ id: number; email: string; passwordHash: string } | null>;
  list(): Promise<Editor[]>;
  /** Removes the editor and every session of theirs; false when there was none. */
  remove(email: string): Promise<boolean>;
  createSession(session: {
    tokenHash: string;
    editorId: number;
    csrfSecret: string;
    expiresAt: Date;
  }): Promise<void>;
  /** The session for a token hash, or null when unknown, revoked or expired at `now`. */
  getSession(tokenHash: string, now: Date): Promise<EditorSession | null>;
  revokeSession(tokenHash: string, now: Date): Promise<void>;
}

export function editorsStore(db: Db): EditorsPort {
  return bindQueries(db, {
    add: addEditor,
    credentials: editorCredentials,
    list: listEditors,
    remove: removeEditor,
    createSession,
    getSession,
    revokeSession,
  });
}

async function addEditor(db: Db, email: string, passwordHash: string): Promise<Editor | null> {
  const row = await db
    .insertInto('editors')
    .values({ email, password_hash: passwordHash })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email', 'created_at'])
    .executeTakeFirst();
  return row ? { id: row.id, email: row.email, createdAt: isoTimestamp(row.created_at) } : null;
}

async function editorCredentials(db: Db, email: string) {
  const row = await db
    .selectFrom('editors')
    .select(['id', 'email', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row ? { id: row.id, email: row.email, passwordHash: row.password_hash } : null;
}

async function listEditors(db: Db): Promise<Editor[]> {
  const rows = await db
    .selectFrom('editors')
    .select(['id', 'email', 'created_at'])
    .orderBy('email')
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email, createdAt: isoTimestamp(row.created_at) }));
}

async function removeEditor(db: Db, email: string): Promise<boolean> {
  const result = await db.deleteFrom('editors').where('email', '=', email).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

async function createSession(
  db: Db,
  session: { tokenHash: string; editorId: number; csrfSecret: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('editor_sessions')
    .values({
      token_hash: session.tokenHash,
      editor_id: session.editorId,
      csrf_secret: session.csrfSecret,
      expires_at: session.expiresAt,
    })
    .execute();
}

async function getSession(db: Db, tokenHash: string, now: Date): Promise<EditorSession | null> {
  const row = await db
    .selectFrom('editor_sessions')
    .innerJoin('editors', 'editors.id', 'editor_sessions.editor_id')
    .select(['editor_sessions.editor_id', 'editors.email', 'editor_sessions.csrf_secret', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  return {
    editorId: row.editor_id,
    email: row.email,
    csrfSecret: row.csrf_secret,
    expiresAt: isoTimestamp(row.expires_at),
  };
}

async function revokeSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('editor_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}
