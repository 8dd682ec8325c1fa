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

// Rows a statement at most: well under PostgreSQL's 65,535 parameters.
const CHUNK = 1000;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += CHUNK) out.push(rows.slice(start, start + CHUNK));
  return out;
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

async function add(db: Db, tallies: ClickTally[], readers: ReaderClick[]): Promise<void> {
  const rows = mergeTallies(tallies);
  if (rows.length === 0 && readers.length === 0) return;
  await db.transaction().execute(async (tx) => {
    for (const chunk of chunks(rows)) {
      await tx
        .insertInto('link_clicks')
        .values(
          chunk.map((tally) => ({
            edition_date: tally.edition,
            revision: tally.revision,
            item_key: tally.itemKey,
            channel: tally.channel,
            day: tally.day,
            clicks: tally.clicks,
            prefetched: tally.prefetched,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['edition_date', 'revision', 'item_key', 'channel', 'day']).doUpdateSet({
            clicks: sql`greatest(0, link_clicks.clicks + excluded.clicks)`,
            prefetched: sql`greatest(0, link_clicks.prefetched + excluded.prefetched)`,
          }),
        )
        .execute();
    }
    for (const chunk of chunks(readers)) await addReaders(tx, chunk);
  });
}

/**
 * The first click of a reader on an item is kept; a reader deleted meanwhile, or who turned counting off, is
 * skipped, not an error.
 */
async function addReaders(tx: Db, readers: ReaderClick[]): Promise<void> {
  const ids = [...new Set(readers.map((reader) => reader.subscriberId))];
  const counted = await tx
    .selectFrom('subscribers')
    .leftJoin('subscriber_preferences', 'subscriber_preferences.subscriber_id', 'subscribers.id')
    .select('subscribers.id')
    .where('subscribers.id', 'in', ids)
    .where((eb) => eb.fn.coalesce('subscriber_preferences.count_my_clicks', sql<boolean>`true`), '=', true)
    .execute();
  const present = new Set(counted.map((row) => row.id));
  const rows = readers.filter((reader) => present.has(reader.subscriberId));
  if (rows.length === 0) return;
  await tx
    .insertInto('reader_clicks')
    .values(
      rows.map((reader) => ({
        edition_date: reader.edition,
        revision: reader.revision,
        item_key: reader.itemKey,
        channel: reader.channel,
        subscriber_id: reader.subscriberId,
        clicked_at: reader.at,
      })),
    )
    .onConflict((conflict) => conflict.doNothing())
    .execute();
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
