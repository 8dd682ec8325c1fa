// The published archive for readers and agents (JSON API, MCP): full-text search over the items of published
// editions, an item's published versions, and paged edition summaries. search_items (migration 004) is a copy of
// each published edition's items, rebuilt by reindexEdition() whenever the edition is saved or published, so a
// draft never shows and a re-saved edition never leaves stale rows.
import { type Kysely, type Selectable, sql } from 'kysely';
import type { EditionSummary } from '../core/ports.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp, storableText } from './_values.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

export interface SearchItemsQuery {
  /** The reader's words, parsed by websearch_to_tsquery ("quoted phrases", or, -not); never SQL. */
  text: string;
  /** Edition dates, inclusive (YYYY-MM-DD). */
  from?: string;
  to?: string;
  level?: string;
  /** The item's primary source or any source that carried it. */
  source?: string;
  /** At least one of these phrases must match (a topic's terms). */
  anyOfPhrases?: readonly string[];
  limit: number;
  offset: number;
}

/** One item as a published edition showed it, with where it was featured. */
export interface PublishedItem {
  editionDate: string;
  /** 0-based position in the edition. */
  position: number;
  key: string;
  title: string;
  url: string;
  level: string;
  source: string;
  sources: string[];
  authors: string[];
  summary: string;
  takeaways: string[];
  /** When the source published it (ISO 8601), as the edition recorded it. */
  publishedAt: string;
}

export interface SearchHit extends PublishedItem {
  rank: number;
}

/** The published archive for readers and agents (JSON API, MCP). Drafts are never in it. */
export interface SearchPort {
  items(query: SearchItemsQuery): Promise<SearchHit[]>;
  /** Every published edition that featured the item, newest first. */
  publishedItem(key: string): Promise<PublishedItem[]>;
  publishedEditions(page: {
    limit: number;
    offset: number;
  }): Promise<{ editions: EditionSummary[]; total: number }>;
}

export function searchStore(db: Db): SearchPort {
  return bindQueries(db, { items: searchItems, publishedItem, publishedEditions: listPublishedEditions });
}

/** Rebuilds the search rows of the edition dated `date`: its items when it is published, none otherwise. */
export async function reindexEdition(db: Db, date: string): Promise<void> {
  await db.deleteFrom('search_items').where('edition_date', '=', date).execute();
  await sql`
    INSERT INTO search_items (edition_date, position, item_key, title, url, level, source, sources, authors,
                              summary, takeaways, item_published_at)
    SELECT e.date, (x.ord - 1)::integer, x.item->>'key', coalesce(x.item->>'title', ''), coalesce(x.item->>'url', ''),
           coalesce(x.item->>'level', ''), coalesce(x.item->>'source', ''), coalesce(x.item->'sources', '[]'),
           coalesce(x.item->'authors', '[]'), coalesce(x.item->>'summary', ''), coalesce(x.item->'takeaways', '[]'),
           coalesce(x.item->>'publishedAt', '')
    FROM editions e
    CROSS JOIN LATERAL jsonb_array_elements(e.body->'items') WITH ORDINALITY AS x(item, ord)
    WHERE e.date = ${date} AND e.published_at IS NOT NULL AND x.item->>'key' IS NOT NULL`.execute(db);
}

const ITEM_COLUMNS = [
  'edition_date',
  'position',
  'item_key',
  'title',
  'url',
  'level',
  'source',
  'sources',
  'authors',
  'summary',
  'takeaways',
  'item_published_at',
] as const;

type ItemRow = Pick<Selectable<Database['search_items']>, (typeof ITEM_COLUMNS)[number]>;

function toPublishedItem(row: ItemRow): PublishedItem {
  return {
    editionDate: row.edition_date,
    position: row.position,
    key: row.item_key,
    title: row.title,
    url: row.url,
    level: row.level,
    source: row.source,
    sources: row.sources,
    authors: row.authors,
    summary: row.summary,
    takeaways: row.takeaways,
    publishedAt: row.item_published_at,
  };
}

/**
 * Ranked matches (best first, then newest edition). The text is a bound parameter of websearch_to_tsquery, which
 * accepts any input: operators and quotes are words to it, and text with no words matches nothing.
 */
async function searchItems(db: Db, query: SearchItemsQuery): Promise<SearchHit[]> {
  // NUL is refused in any text parameter; it is no word anyway. The tsqueries are FROM items, so each is made
  // once per query rather than once per row.
  const phrases = (query.anyOfPhrases ?? []).map(
    (phrase) => sql`phraseto_tsquery('english', ${storableText(phrase)})`,
  );
  const topic = phrases.length ? sql.join(phrases, sql` || `) : sql`NULL::tsquery`;
  let select = db
    .selectFrom([
      'search_items',
      sql<{ q: string }>`websearch_to_tsquery('english', ${storableText(query.text)})`.as('q'),
      sql<{ t: string }>`(SELECT ${topic} AS t)`.as('topic'),
    ])
    .select(ITEM_COLUMNS)
    .select(sql<number>`ts_rank_cd(document, q)`.as('rank'))
    .where(sql<boolean>`document @@ q`);
  if (phrases.length) select = select.where(sql<boolean>`document @@ t`);
  if (query.from) select = select.where('edition_date', '>=', query.from);
  if (query.to) select = select.where('edition_date', '<=', query.to);
  if (query.level) select = select.where('level', '=', query.level);
  if (query.source) {
    const source = storableText(query.source);
    const sources = JSON.stringify([source]);
    select = select.where(sql<boolean>`(source = ${source} OR sources @> ${sources}::jsonb)`);
  }
  const rows = await select
    .orderBy('rank', 'desc')
    .orderBy('edition_date', 'desc')
    .orderBy('position', 'asc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return rows.map((row) => ({ ...toPublishedItem(row), rank: Number(row.rank) }));
}

/** Every published edition that featured the item, newest first. */
async function publishedItem(db: Db, key: string): Promise<PublishedItem[]> {
  const rows = await db
    .selectFrom('search_items')
    .select(ITEM_COLUMNS)
    .where('item_key', '=', key)
    .orderBy('edition_date', 'desc')
    .limit(100)
    .execute();
  return rows.map(toPublishedItem);
}

/** Published editions only, newest first, one page of summaries and the total. */
async function listPublishedEditions(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ editions: EditionSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('editions')
      .select(['date', 'name', 'title', 'item_count', 'published_at'])
      .where('published_at', 'is not', null)
      .orderBy('date', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('editions')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('published_at', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.total),
    editions: rows.map((row) => ({
      date: row.date,
      name: row.name,
      title: row.title,
      itemCount: row.item_count,
      publishedAt: row.published_at === null ? null : isoTimestamp(row.published_at),
    })),
  };
}
