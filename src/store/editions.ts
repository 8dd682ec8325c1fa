// Editions: the saved JSON body, plus which items each one featured (for "not featured before").
// Its port, EditionsPort, is declared in core/ports.ts: the stages read editions.
import { type Kysely, sql } from 'kysely';
import { StoreError } from '../core/errors.js';
import type { EditionSummary, EditionsPort } from '../core/ports.js';
import type { Edition } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp, json } from './_values.js';
import type { Database } from './schema.js';
import { reindexEdition } from './search.js';

type Db = Kysely<Database>;

export function editionsStore(db: Db): EditionsPort {
  return bindQueries(db, {
    save: saveEdition,
    get: getEdition,
    list: listEditions,
    markPublished,
    featuredBefore,
  });
}

/** Replaces the edition of `edition.date` and its item list together. `publishedAt` left undefined keeps the stored one. */
async function saveEdition(db: Db, edition: Edition): Promise<void> {
  await db.transaction().execute((tx) => saveEditionIn(tx, edition));
}

/** saveEdition inside the caller's transaction (a correction saves the edition with its new revision). */
export async function saveEditionIn(tx: Db, edition: Edition): Promise<void> {
  const keys = [...new Set(edition.items.map((item) => item.key))];
  const { publishedAt, ...body } = edition;
  await tx
    .insertInto('editions')
    .values({
      date: edition.date,
      name: edition.name,
      title: edition.title,
      item_count: edition.items.length,
      body: json(body),
      published_at: publishedAt ?? null,
    })
    .onConflict((conflict) =>
      conflict.column('date').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        title: eb.ref('excluded.title'),
        item_count: eb.ref('excluded.item_count'),
        body: eb.ref('excluded.body'),
        updated_at: sql`now()`,
        published_at:
          publishedAt !== undefined ? eb.ref('excluded.published_at') : eb.ref('editions.published_at'),
      })),
    )
    .execute();
  await tx.deleteFrom('edition_items').where('date', '=', edition.date).execute();
  if (keys.length) {
    await tx
      .insertInto('edition_items')
      .values(keys.map((key, position) => ({ date: edition.date, key, position })))
      .execute();
  }
  await reindexEdition(tx, edition.date);
}

async function getEdition(db: Db, date: string): Promise<Edition | null> {
  const row = await db
    .selectFrom('editions')
    .select(['body', 'published_at'])
    .where('date', '=', date)
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...(row.body as Omit<Edition, 'publishedAt'>),
    publishedAt: row.published_at === null ? null : isoTimestamp(row.published_at),
  };
}

/** Summaries only (never the bodies), newest first. */
async function listEditions(db: Db, options: { limit?: number } = {}): Promise<EditionSummary[]> {
  let query = db
    .selectFrom('editions')
    .select(['date', 'name', 'title', 'item_count', 'published_at'])
    .orderBy('date', 'desc');
  if (options.limit !== undefined) query = query.limit(Math.max(0, Math.floor(options.limit)));
  const rows = await query.execute();
  return rows.map((row) => ({
    date: row.date,
    name: row.name,
    title: row.title,
    itemCount: row.item_count,
    publishedAt: row.published_at === null ? null : isoTimestamp(row.published_at),
  }));
}

async function markPublished(db: Db, date: string, at: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('editions')
      .set({ published_at: at })
      .where('date', '=', date)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n)
      throw new StoreError(`There is no edition dated ${date} to mark as published; build it first.`);
    await reindexEdition(tx, date);
  });
}

async function featuredBefore(db: Db, date: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('edition_items as ei')
    .innerJoin('editions as e', 'e.date', 'ei.date')
    .select('ei.key')
    .distinct()
    .where('e.published_at', 'is not', null)
    .where('e.date', '<', date)
    .execute();
  return new Set(rows.map((row) => row.key));
}
