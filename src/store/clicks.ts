// Counted links (tables link_clicks and reader_clicks, migration 012). Counts add up in the database
// (`clicks = clicks + excluded.clicks`), so several `digest serve` instances flushing their batches into one
// PostgreSQL never overwrite each other. The aggregate table names no reader; reader rows exist only in per-reader
// mode, one per reader and item (the first click), and go with the reader.
import { type Kysely, sql } from 'kysely';
import { compareText } from '../core/text.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp } from './_values.js';
import type { Database } from './schema.js';

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
  /** One transaction; counts add up (INSERT … ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks), safe from several `digest serve` instances. */
  add(tallies: ClickTally[], readers: ReaderClick[]): Promise<void>;
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
  deleteSubscriber(subscriberId: number): Promise<number>;
  /** Whether per-reader counting is on for this reader (true unless they turned it off). */
  readerCounting(subscriberId: number): Promise<boolean>;
  /** The reader's own switch; false when the subscriber is gone. Turning it off deletes their clicks. */
  setReaderCounting(subscriberId: number, on: boolean): Promise<boolean>;
}

export function clicksStore(db: Db): ClicksPort {
  return bindQueries(db, {
    add,
    byItem,
    byEdition,
    itemTotals,
    forSubscriber: readerClicks,
    deleteSubscriber,
    readerCounting,
    setReaderCounting,
  });
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

/** A reader's earliest click on an item of the batch: which of a statement's repeats is inserted is not defined. */
function firstClicks(readers: ReaderClick[]): ReaderClick[] {
  const first = new Map<string, ReaderClick>();
  for (const reader of readers) {
    const key = `${reader.subscriberId}|${reader.edition}|${reader.revision}|${reader.channel}|${reader.itemKey}`;
    const seen = first.get(key);
    if (!seen || Date.parse(reader.at) < Date.parse(seen.at)) first.set(key, reader);
  }
  return first.size === readers.length ? readers : [...first.values()];
}

/**
 * The first click of a reader on an item is kept (repeats, in the batch or stored, are skipped); a reader deleted
 * meanwhile, or who turned counting off, is skipped, not an error.
 */
async function addReaders(tx: Db, batch: ReaderClick[]): Promise<void> {
  const readers = firstClicks(batch);
  await sql`
    INSERT INTO reader_clicks (edition_date, revision, item_key, channel, subscriber_id, clicked_at)
    SELECT r.edition_date, r.revision, r.item_key, r.channel, r.subscriber_id, r.clicked_at
    FROM unnest(
      ${readers.map((row) => row.edition)}::date[], ${readers.map((row) => row.revision)}::int[],
      ${readers.map((row) => row.itemKey)}::text[], ${readers.map((row) => row.channel)}::text[],
      ${readers.map((row) => row.subscriberId)}::int[], ${readers.map((row) => row.at)}::timestamptz[])
      AS r (edition_date, revision, item_key, channel, subscriber_id, clicked_at)
    JOIN subscribers ON subscribers.id = r.subscriber_id
    LEFT JOIN subscriber_preferences ON subscriber_preferences.subscriber_id = r.subscriber_id
    WHERE coalesce(subscriber_preferences.count_my_clicks, true)
    ON CONFLICT DO NOTHING`.execute(tx);
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
    db
      .selectFrom('reader_clicks')
      .select((eb) => ['item_key', eb.fn.count<string | number>('subscriber_id').distinct().as('readers')])
      .where('edition_date', '=', edition)
      .groupBy('item_key')
      .execute(),
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

/** One reader's clicks (per-reader mode), oldest first: also part of their export (store/preferences.ts). */
export async function readerClicks(db: Db, subscriberId: number): Promise<ReaderClick[]> {
  const rows = await db
    .selectFrom('reader_clicks')
    .selectAll()
    .where('subscriber_id', '=', subscriberId)
    .orderBy('clicked_at')
    .orderBy('item_key')
    .execute();
  return rows.map((row) => ({
    edition: row.edition_date,
    revision: row.revision,
    itemKey: row.item_key,
    channel: row.channel,
    subscriberId: row.subscriber_id,
    at: isoTimestamp(row.clicked_at),
  }));
}

async function deleteSubscriber(db: Db, subscriberId: number): Promise<number> {
  const result = await db
    .deleteFrom('reader_clicks')
    .where('subscriber_id', '=', subscriberId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
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
