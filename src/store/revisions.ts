// Every published revision of an edition (table edition_revisions, migration 011). A correction is one transaction:
// the revision readers had is kept (revision 1 recorded first if it never was), the new one is added and becomes
// the live edition — interrupted anywhere, either the old revision is live or the new one, never a mix.
import { type Kysely, sql } from 'kysely';
import { StoreError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp, json } from './_values.js';
import { saveEditionIn } from './editions.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

export interface RevisionSummary {
  revision: number;
  publishedAt: string;
  /** Who published it: null for revision 1 (published by `digest publish` or approval). */
  editor: string | null;
  reason: string | null;
}

export interface PublishCorrectionInput {
  /** The corrected edition, with its `corrections` list already naming the new revision last. */
  edition: Edition;
  revision: number;
  editor: string;
  reason: string;
  at: string;
}

/** The revisions of published editions: listed, read whole, and a correction published. */
export interface RevisionsPort {
  /** Oldest first; empty for an edition that was never published. */
  list(date: string): Promise<RevisionSummary[]>;
  /** Revision `revision` as readers had it, or null. */
  get(date: string, revision: number): Promise<Edition | null>;
  publishCorrection(input: PublishCorrectionInput): Promise<void>;
}

export function revisionsStore(db: Db): RevisionsPort {
  return bindQueries(db, { list: listRevisions, get: getRevision, publishCorrection });
}

async function listRevisions(db: Db, date: string): Promise<RevisionSummary[]> {
  const rows = await db
    .selectFrom('edition_revisions')
    .select(['revision', 'published_at', 'editor', 'reason'])
    .where('edition_date', '=', date)
    .orderBy('revision')
    .execute();
  return rows.map((row) => ({
    revision: row.revision,
    publishedAt: isoTimestamp(row.published_at),
    editor: row.editor,
    reason: row.reason,
  }));
}

async function getRevision(db: Db, date: string, revision: number): Promise<Edition | null> {
  const row = await db
    .selectFrom('edition_revisions')
    .select(['body', 'published_at'])
    .where('edition_date', '=', date)
    .where('revision', '=', revision)
    .executeTakeFirst();
  if (!row) return null;
  return { ...(row.body as Omit<Edition, 'publishedAt'>), publishedAt: isoTimestamp(row.published_at) };
}

function publishCorrection(db: Db, input: PublishCorrectionInput): Promise<void> {
  return db.transaction().execute((tx) => publishCorrectionIn(tx, input));
}

async function publishCorrectionIn(tx: Db, input: PublishCorrectionInput): Promise<void> {
  const { edition, revision } = input;
  // The revision readers had: recorded as revision 1 if it was published before revisions were kept.
  await sql`
    INSERT INTO edition_revisions (edition_date, revision, body, published_at)
    SELECT date, 1, body, published_at FROM editions WHERE date = ${edition.date}::date AND published_at IS NOT NULL
    ON CONFLICT DO NOTHING`.execute(tx);
  const latest = await tx
    .selectFrom('edition_revisions')
    .select(sql<number>`max(revision)`.as('latest'))
    .where('edition_date', '=', edition.date)
    .executeTakeFirst();
  // Two corrections at once: the second finds its revision taken and changes nothing.
  if ((latest?.latest ?? 0) !== revision - 1) {
    throw new StoreError(
      `The edition of ${edition.date} is at revision ${latest?.latest ?? 0}, not ${revision - 1}: reload and correct it again.`,
    );
  }
  const { publishedAt: _, ...body } = edition;
  await tx
    .insertInto('edition_revisions')
    .values({
      edition_date: edition.date,
      revision,
      body: json(body),
      editor: input.editor,
      reason: input.reason,
      published_at: input.at,
    })
    .execute();
  // The live edition keeps its first publication time; the correction's time is in its corrections list.
  await saveEditionIn(tx, { ...edition, publishedAt: undefined });
}
