// Counted links (tables link_clicks and reader_clicks, migration 012). Counts add up in the database
// (`clicks = clicks + excluded.clicks`), so several `digest serve` instances flushing their batches into one
// PostgreSQL never overwrite each other. The aggregate table names no reader; reader rows exist only in per-reader
// mode, one per reader and item (the first click), and go with the reader. They are written to
// reader_clicks_incoming and folded into reader_clicks later (store/reader-clicks-incoming.ts); every read here
// reads both.
import { type Kysely, sql } from 'kysely';
import { compareText } from '../core/text.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp } from './_values.js';
import { type FoldSlice, incomingClicksFold } from './reader-clicks-incoming.js';
import type { Database, ReaderClicksTable } from './schema.js';

type Db = Kysely<Database>;

export type ClickChannel = 'mail' | 'site';
/**
 * Counts to add for one (edition, revision, item, channel, day). A scanner found out late moves clicks already
 * counted over: `{ clicks: -1, prefetched: 1 }` (sums stay at zero or more).
 */
export interface ClickTally {
  edition: string;
  revision: number;
  itemKey: string;
  channel: ClickChannel;
  day: string;
  clicks: number;
  prefetched: number;
}
/** Per-reader mode only: one reader's click. */
export interface ReaderClick {
  edition: string;
  revision: number;
  itemKey: string;
  channel: ClickChannel;
  subscriberId: number;
  at: string;
}
export interface ItemClicks {
  itemKey: string;
  clicks: number;
  prefetched: number;
  /** null unless per-reader rows exist */
  uniqueReaders: number | null;
}
export interface EditionClicks {
  edition: string;
  clicks: number;
  prefetched: number;
}
export interface ClicksPort {
  /**
   * One transaction; counts add up (INSERT … ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks), safe from
   * several `digest serve` instances. Reader rows go to the incoming table, read at once, folded by `fold`.
   */
  add(tallies: ClickTally[], readers: ReaderClick[]): Promise<void>;
  /** Moves up to `limit` incoming reader rows into reader_clicks (one slice of the fold). */
  fold(limit: number): Promise<FoldSlice>;
  /** Summed over revisions, channels and days. */
  byItem(edition: string): Promise<ItemClicks[]>;
  /** Newest edition first. */
  byEdition(limit: number): Promise<EditionClicks[]>;
  /**
   * Clicks per item of several editions in one query, from the aggregate counts only (no reader rows: their
   * unique-reader counts cost a pass over every reader's clicks, and the ranking does not use them).
   */
  itemTotals(editions: readonly string[]): Promise<{ edition: string; itemKey: string; clicks: number }[]>;
  forSubscriber(subscriberId: number): Promise<ReaderClick[]>;
  deleteSubscriber(subscriberId: number): Promise<void>;
  /** Whether per-reader counting is on for this reader (true unless they turned it off). */
  readerCounting(subscriberId: number): Promise<boolean>;
  /** The reader's own switch; false when the subscriber is gone. Turning it off deletes their clicks. */
  setReaderCounting(subscriberId: number, on: boolean): Promise<boolean>;
}

export function clicksStore(db: Db): ClicksPort {
  return {
    ...bindQueries(db, {
      add,
      byItem,
      byEdition,
      itemTotals,
      forSubscriber: readerClicks,
      deleteSubscriber,
      readerCounting,
      setReaderCounting,
    }),
    fold: incomingClicksFold(db),
  };
}

/** One row per key: a statement may not update the same row twice, so a batch's repeats are summed first. */
function mergeTallies(tallies: ClickTally[]): ClickTally[] {
  const merged = new Map<string, ClickTally>();
  for (const tally of tallies) {
    if (tally.clicks === 0 && tally.prefetched === 0) continue;
    const key = JSON.stringify([tally.edition, tally.revision, tally.itemKey, tally.channel, tally.day]);
    const seen = merged.get(key);
    if (seen) {
      seen.clicks += tally.clicks;
      seen.prefetched += tally.prefetched;
    } else merged.set(key, { ...tally });
  }
  return [...merged.values()];
}

// Each list goes as one statement whose rows come from arrays (`unnest`), one parameter a column: the database
// parses seven arrays instead of seven parameters a row, and a batch of any size is one round trip a table.
async function add(db: Db, tallies: ClickTally[], readers: ReaderClick[]): Promise<void> {
  const rows = mergeTallies(tallies);
  if (rows.length === 0 && readers.length === 0) return;
  // One statement is its own transaction: a slice of only reader rows (most of a large flush) saves the two round
  // trips of BEGIN and COMMIT.
  if (rows.length === 0) return addReaders(db, readers);
  if (readers.length === 0) return addTallies(db, rows);
  await db.transaction().execute(async (tx) => {
    await addTallies(tx, rows);
    await addReaders(tx, readers);
  });
}

async function addTallies(tx: Db, rows: ClickTally[]): Promise<void> {
  await sql`
    INSERT INTO link_clicks (edition_date, revision, item_key, channel, day, clicks, prefetched)
    SELECT * FROM unnest(
      ${rows.map((row) => row.edition)}::date[], ${rows.map((row) => row.revision)}::int[],
      ${rows.map((row) => row.itemKey)}::text[], ${rows.map((row) => row.channel)}::text[],
      ${rows.map((row) => row.day)}::date[], ${rows.map((row) => row.clicks)}::int[],
      ${rows.map((row) => row.prefetched)}::int[])
    ON CONFLICT (edition_date, revision, item_key, channel, day) DO UPDATE SET
      clicks = greatest(0, link_clicks.clicks + excluded.clicks),
      prefetched = greatest(0, link_clicks.prefetched + excluded.prefetched)`.execute(tx);
}

/**
 * Rows only, no checks: which click is a reader's first, and whether the reader is still there and counted, is the
 * fold's to find (store/reader-clicks-incoming.ts), so a list's burst is written at the cost of its rows.
 */
async function addReaders(tx: Db, readers: ReaderClick[]): Promise<void> {
  await sql`
    INSERT INTO reader_clicks_incoming (edition_date, revision, item_key, channel, subscriber_id, clicked_at)
    SELECT * FROM unnest(
      ${readers.map((row) => row.edition)}::date[], ${readers.map((row) => row.revision)}::int[],
      ${readers.map((row) => row.itemKey)}::text[], ${readers.map((row) => row.channel)}::text[],
      ${readers.map((row) => row.subscriberId)}::int[], ${readers.map((row) => row.at)}::timestamptz[])`.execute(
    tx,
  );
}

async function byItem(db: Db, edition: string): Promise<ItemClicks[]> {
  const [counts, readers] = await Promise.all([
    db
      .selectFrom('link_clicks')
      .select((eb) => [
        'item_key',
        eb.fn.sum<string | number>('clicks').as('clicks'),
        eb.fn.sum<string | number>('prefetched').as('prefetched'),
      ])
      .where('edition_date', '=', edition)
      .groupBy('item_key')
      .execute(),
    sql<{ item_key: string; readers: string | number }>`
      SELECT item_key, count(DISTINCT subscriber_id) AS readers FROM (
        SELECT item_key, subscriber_id FROM reader_clicks WHERE edition_date = ${edition}
        UNION ALL
        SELECT item_key, subscriber_id FROM reader_clicks_incoming AS i
        WHERE edition_date = ${edition} AND ${incomingCounted}) AS rows
      GROUP BY item_key`
      .execute(db)
      .then((result) => result.rows),
  ]);
  const unique = new Map(readers.map((row) => [row.item_key, Number(row.readers)]));
  const perReader = readers.length > 0;
  return counts
    .map((row) => ({
      itemKey: row.item_key,
      clicks: Number(row.clicks),
      prefetched: Number(row.prefetched),
      uniqueReaders: perReader ? (unique.get(row.item_key) ?? 0) : null,
    }))
    .sort((a, b) => b.clicks - a.clicks || compareText(a.itemKey, b.itemKey));
}

async function byEdition(db: Db, limit: number): Promise<EditionClicks[]> {
  const rows = await db
    .selectFrom('link_clicks')
    .select((eb) => [
      'edition_date',
      eb.fn.sum<string | number>('clicks').as('clicks'),
      eb.fn.sum<string | number>('prefetched').as('prefetched'),
    ])
    .groupBy('edition_date')
    .orderBy('edition_date', 'desc')
    .limit(Math.max(0, Math.floor(limit)))
    .execute();
  return rows.map((row) => ({
    edition: row.edition_date,
    clicks: Number(row.clicks),
    prefetched: Number(row.prefetched),
  }));
}

async function itemTotals(
  db: Db,
  editions: readonly string[],
): Promise<{ edition: string; itemKey: string; clicks: number }[]> {
  if (editions.length === 0) return [];
  const rows = await db
    .selectFrom('link_clicks')
    .select((eb) => ['edition_date', 'item_key', eb.fn.sum<string | number>('clicks').as('clicks')])
    .where('edition_date', 'in', [...editions])
    .groupBy(['edition_date', 'item_key'])
    .execute();
  return rows.map((row) => ({
    edition: row.edition_date,
    itemKey: row.item_key,
    clicks: Number(row.clicks),
  }));
}

/**
 * One reader's clicks (per-reader mode), oldest first: also part of their export (store/preferences.ts). Incoming
 * rows the fold would keep are theirs already: those on an item with no stored click, the earliest of them.
 */
export async function readerClicks(db: Db, subscriberId: number): Promise<ReaderClick[]> {
  const result = await sql<ReaderClicksTable>`
    SELECT * FROM reader_clicks WHERE subscriber_id = ${subscriberId}
    UNION ALL
    SELECT * FROM (
      SELECT DISTINCT ON (edition_date, revision, item_key, channel) * FROM reader_clicks_incoming AS i
      WHERE subscriber_id = ${subscriberId} AND ${incomingCounted}
        AND NOT EXISTS (SELECT 1 FROM reader_clicks AS c
          WHERE (c.edition_date, c.revision, c.item_key, c.channel, c.subscriber_id)
              = (i.edition_date, i.revision, i.item_key, i.channel, i.subscriber_id))
      ORDER BY edition_date, revision, item_key, channel, clicked_at) AS incoming
    ORDER BY clicked_at, item_key`.execute(db);
  return result.rows.map((row) => ({
    edition: row.edition_date,
    revision: row.revision,
    itemKey: row.item_key,
    channel: row.channel,
    subscriberId: row.subscriber_id,
    at: isoTimestamp(row.clicked_at),
  }));
}

/** An incoming row (alias `i`) the fold would keep: its reader is still there and counted. */
const incomingCounted = sql`EXISTS (SELECT 1 FROM subscribers AS s WHERE s.id = i.subscriber_id)
  AND coalesce((SELECT p.count_my_clicks FROM subscriber_preferences AS p WHERE p.subscriber_id = i.subscriber_id), true)`;

async function deleteSubscriber(db: Db, subscriberId: number): Promise<void> {
  await db.deleteFrom('reader_clicks').where('subscriber_id', '=', subscriberId).execute();
  await db.deleteFrom('reader_clicks_incoming').where('subscriber_id', '=', subscriberId).execute();
}

export async function readerCounting(db: Db, subscriberId: number): Promise<boolean> {
  const row = await db
    .selectFrom('subscriber_preferences')
    .select('count_my_clicks')
    .where('subscriber_id', '=', subscriberId)
    .executeTakeFirst();
  return row?.count_my_clicks ?? true;
}

async function setReaderCounting(db: Db, subscriberId: number, on: boolean): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .insertInto('subscriber_preferences')
      .columns(['subscriber_id', 'count_my_clicks'])
      .expression((eb) =>
        eb
          .selectFrom('subscribers')
          .select(['id', sql<boolean>`${on}::boolean`.as('count_my_clicks')])
          .where('id', '=', subscriberId),
      )
      .onConflict((conflict) =>
        conflict.column('subscriber_id').doUpdateSet({ count_my_clicks: on, updated_at: sql`now()` }),
      )
      .executeTakeFirst();
    if (!on) await deleteSubscriber(tx, subscriberId);
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}
