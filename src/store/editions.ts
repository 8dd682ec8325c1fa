// Editions: the saved JSON body, plus which items each one featured (for "not featured before").
import { StoreError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { isoTimestamp, toJson } from './_values.js';
import type { SqlClient, SqlExecutor } from './sql-client.js';
import type { EditionSummary } from './types.js';

/** Replaces the edition of `edition.date` and its item list together. `publishedAt` left undefined keeps the stored one. */
export async function saveEdition(client: SqlClient, edition: Edition): Promise<void> {
  const keys = [...new Set(edition.items.map((item) => item.key))];
  const { publishedAt, ...body } = edition;
  await client.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO editions (date, name, title, item_count, body, published_at)
       VALUES ($1::date, $2, $3, $4, $5::jsonb, $6::timestamptz)
       ON CONFLICT (date) DO UPDATE SET name = excluded.name, title = excluded.title,
         item_count = excluded.item_count, body = excluded.body, updated_at = now(),
         published_at = CASE WHEN $7::boolean THEN excluded.published_at ELSE editions.published_at END`,
      [
        edition.date,
        edition.name,
        edition.title,
        edition.items.length,
        toJson(body),
        publishedAt ?? null,
        publishedAt !== undefined,
      ],
    );
    await tx.query('DELETE FROM edition_items WHERE date = $1::date', [edition.date]);
    if (keys.length) {
      await tx.query(
        `INSERT INTO edition_items (date, key, position)
         SELECT $1::date, key, position::integer - 1 FROM unnest($2::text[]) WITH ORDINALITY AS k(key, position)`,
        [edition.date, keys],
      );
    }
  });
}

export async function getEdition(db: SqlExecutor, date: string): Promise<Edition | null> {
  const { rows } = await db.query<{ body: Edition; published_at: Date | string | null }>(
    'SELECT body, published_at FROM editions WHERE date = $1::date',
    [date],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row.body, publishedAt: row.published_at === null ? null : isoTimestamp(row.published_at) };
}

export async function listEditions(db: SqlExecutor): Promise<EditionSummary[]> {
  const { rows } = await db.query<{
    date: string;
    name: string;
    title: string;
    item_count: number;
    published_at: Date | string | null;
  }>(
    `SELECT to_char(date, 'YYYY-MM-DD') AS date, name, title, item_count, published_at
     FROM editions ORDER BY date DESC`,
  );
  return rows.map((row) => ({
    date: row.date,
    name: row.name,
    title: row.title,
    itemCount: row.item_count,
    publishedAt: row.published_at === null ? null : isoTimestamp(row.published_at),
  }));
}

export async function markPublished(db: SqlExecutor, date: string, at: string): Promise<void> {
  const { rowCount } = await db.query(
    'UPDATE editions SET published_at = $2::timestamptz WHERE date = $1::date',
    [date, at],
  );
  if (rowCount === 0)
    throw new StoreError(`There is no edition dated ${date} to mark as published; build it first.`);
}

export async function featuredBefore(db: SqlExecutor, date: string): Promise<Set<string>> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT DISTINCT ei.key FROM edition_items ei JOIN editions e ON e.date = ei.date
     WHERE e.published_at IS NOT NULL AND e.date < $1::date`,
    [date],
  );
  return new Set(rows.map((row) => row.key));
}
