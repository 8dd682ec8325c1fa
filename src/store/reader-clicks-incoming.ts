// Readers' clicks on their way into reader_clicks (migration 021). A flush writes them to reader_clicks_incoming,
// whose rows cost only themselves; the fold moves them on in slices, as reader_clicks keeps them: the reader's first
// click on an item (an earlier stored one stays), none of a reader removed meanwhile or who turned counting off.
//
// Each slice takes rows by their place in the table (`ctid`, a TID range scan), from where the last slice ended and
// over a bounded run of pages: the rows folded before are dead until the table is emptied, and a scan from the start,
// or over all of them at once, would hold PGlite's thread for as long as the dead rows take to pass. At the end the
// fold sweeps once more from the start (PostgreSQL may place a new row in an earlier page's free space) and calls
// the table empty only after a sweep that found nothing. An emptied table that has held many rows is truncated,
// since PGlite has no autovacuum to reclaim them. On PostgreSQL several instances fold at once: each slice skips rows
// another has locked.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Before the first row of any page: offsets start at 1. */
const FIRST_ROW = '(0,0)';
/** Heap pages a slice reads at most (8 KB each, some 70 rows). */
const PAGES_PER_SLICE = 64;
/** Rows folded between truncations: the dead rows an emptied table may hold. */
const TRUNCATE_AFTER_ROWS = 10_000;

export interface FoldSlice {
  /** Incoming rows taken (those skipped count too). */
  taken: number;
  /** False once a whole sweep of the table found no row. */
  left: boolean;
}

/** The fold of one store: each call folds one slice of at most `limit` rows. */
export function incomingClicksFold(db: Db): (limit: number) => Promise<FoldSlice> {
  let from = FIRST_ROW;
  // Rows the sweep under way found: every sweep starts at the table's start.
  let sweepFound = 0;
  let sinceTruncate = 0;
  return async (limit) => {
    const untilPage = pageOf(from) + PAGES_PER_SLICE;
    const slice = await foldSlice(db, { from, untilPage, limit });
    sinceTruncate += slice.taken;
    sweepFound += slice.taken;
    if (slice.taken >= limit && slice.last) {
      from = slice.last;
      return { taken: slice.taken, left: true };
    }
    from = `(${untilPage},0)`;
    if (untilPage < slice.pages) return { taken: slice.taken, left: true };
    // The table's end: empty only if this whole sweep found nothing; else one more sweep, from the start.
    const empty = sweepFound === 0;
    from = FIRST_ROW;
    sweepFound = 0;
    if (!empty) return { taken: slice.taken, left: true };
    if (sinceTruncate >= TRUNCATE_AFTER_ROWS && (await truncateIfEmpty(db))) sinceTruncate = 0;
    return { taken: 0, left: false };
  };
}

const pageOf = (tid: string) => Number(tid.slice(1, tid.indexOf(',')));

/**
 * One statement: the slice's rows deleted from the incoming table and inserted into reader_clicks, the earliest of
 * a reader's repeats, each reader asked row by row (an index look-up each, as the write used to).
 */
async function foldSlice(
  db: Db,
  slice: { from: string; untilPage: number; limit: number },
): Promise<{ taken: number; last: string | null; pages: number }> {
  const result = await sql<{ taken: number; last: string | null; pages: number }>`
    WITH taken AS (
      DELETE FROM reader_clicks_incoming
      WHERE ctid = ANY (ARRAY(
        SELECT ctid FROM reader_clicks_incoming
        WHERE ctid > ${slice.from}::tid AND ctid < ${`(${slice.untilPage},0)`}::tid
        LIMIT ${slice.limit} FOR UPDATE SKIP LOCKED))
      RETURNING ctid AS place, edition_date, revision, item_key, channel, subscriber_id, clicked_at),
    kept AS (
      INSERT INTO reader_clicks (edition_date, revision, item_key, channel, subscriber_id, clicked_at)
      SELECT DISTINCT ON (t.edition_date, t.revision, t.item_key, t.channel, t.subscriber_id)
        t.edition_date, t.revision, t.item_key, t.channel, t.subscriber_id, t.clicked_at
      FROM taken AS t
      WHERE (SELECT true FROM subscribers WHERE subscribers.id = t.subscriber_id)
        AND coalesce((SELECT p.count_my_clicks FROM subscriber_preferences AS p
                      WHERE p.subscriber_id = t.subscriber_id), true)
      ORDER BY t.edition_date, t.revision, t.item_key, t.channel, t.subscriber_id, t.clicked_at
      ON CONFLICT DO NOTHING)
    SELECT count(*)::int AS taken, max(place)::text AS last, ${PAGES_SQL} AS pages FROM taken`.execute(db);
  const row = result.rows[0];
  return { taken: row?.taken ?? 0, last: row?.last ?? null, pages: row?.pages ?? 0 };
}

const PAGES_SQL = sql`(pg_relation_size('reader_clicks_incoming') / current_setting('block_size')::int)::int`;

/**
 * Empties the table's pages once no row is left, checked under the lock a run of pages at a time with a turn of the
 * event loop between runs (PGlite's thread is the redirect's). NOWAIT: a flush writing or a backup reading it now
 * keeps it as it is, and a later fold that finds it empty tries again.
 */
async function truncateIfEmpty(db: Db): Promise<boolean> {
  try {
    return await db.transaction().execute(async (tx) => {
      await sql`LOCK TABLE reader_clicks_incoming IN ACCESS EXCLUSIVE MODE NOWAIT`.execute(tx);
      const size = await sql<{ pages: number }>`SELECT ${PAGES_SQL} AS pages`.execute(tx);
      const pages = size.rows[0]?.pages ?? 0;
      for (let page = 0; page < pages; page += PAGES_PER_SLICE) {
        if (page > 0) await nextTurn();
        const left = await sql`
          SELECT 1 FROM reader_clicks_incoming
          WHERE ctid > ${`(${page},0)`}::tid AND ctid < ${`(${page + PAGES_PER_SLICE},0)`}::tid LIMIT 1`.execute(
          tx,
        );
        if (left.rows.length > 0) return false;
      }
      await sql`TRUNCATE reader_clicks_incoming`.execute(tx);
      return true;
    });
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}

const LOCK_NOT_AVAILABLE = '55P03';
