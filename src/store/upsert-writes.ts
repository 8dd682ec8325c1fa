// The writes of an upsert plan, set-based: a JSON array per statement, unpacked by jsonb_to_recordset.
// Plain JSON.stringify: every string in a planned row already went through storableText (item-merge).
import type { StoredItem } from '../core/types.js';
import { chunks } from './_values.js';
import type { SqlExecutor } from './sql-client.js';
import type { UpsertPlan } from './upsert-plan.js';

/** Rows per statement: large enough to amortise a round trip, small enough to keep parameters a few MB. */
const CHUNK = 500;

const ITEM_FIELDS = `key text, canonical_url text, arxiv_id text, url text, title text, text text, authors jsonb,
  image text, published_at timestamptz, upvotes integer, citations integer, primary_source text, sources jsonb,
  manual_week date, manual_note text, first_seen_at timestamptz`;

const INSERT_ITEMS = `INSERT INTO items (key, canonical_url, arxiv_id, url, title, text, authors, image,
    published_at, upvotes, citations, primary_source, sources, manual_week, manual_note, first_seen_at, updated_at)
  SELECT key, canonical_url, arxiv_id, url, title, text, authors, image, published_at, upvotes, citations,
    primary_source, sources, manual_week, manual_note, first_seen_at, first_seen_at
  FROM jsonb_to_recordset($1::jsonb) AS x(${ITEM_FIELDS})`;

const UPDATE_ITEMS = `UPDATE items AS i SET key = x.key, arxiv_id = x.arxiv_id, title = x.title, text = x.text,
    authors = x.authors, image = x.image, published_at = x.published_at, upvotes = x.upvotes,
    citations = x.citations, primary_source = x.primary_source, sources = x.sources, manual_week = x.manual_week,
    manual_note = x.manual_note, first_seen_at = x.first_seen_at, updated_at = now()
  FROM jsonb_to_recordset($1::jsonb) AS x(old_key text, ${ITEM_FIELDS})
  WHERE i.key = x.old_key`;

// A reference that would collide with one already pointing at the new key is dropped (the survivor's wins).
const REKEY_EDITION_ITEMS = `WITH m AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(old_key text, new_key text)),
  moved AS (DELETE FROM edition_items e USING m WHERE e.key = m.old_key RETURNING e.date, m.new_key, e.position)
  INSERT INTO edition_items (date, key, position)
  SELECT DISTINCT ON (date, new_key) date, new_key, position FROM moved ORDER BY date, new_key, position
  ON CONFLICT (date, key) DO NOTHING`;

const REKEY_DECISIONS = `WITH m AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(old_key text, new_key text)),
  moved AS (DELETE FROM decisions d USING m WHERE d.item_key = m.old_key
    RETURNING d.week, m.new_key, d.decision, d.decided_at)
  INSERT INTO decisions (week, item_key, decision, decided_at)
  SELECT DISTINCT ON (week, new_key) week, new_key, decision, decided_at FROM moved
  ORDER BY week, new_key, decided_at DESC
  ON CONFLICT (week, item_key) DO NOTHING`;

export async function writePlan(tx: SqlExecutor, plan: UpsertPlan): Promise<void> {
  // Absorbed rows go first so their URLs are free before anything else is written.
  if (plan.deletes.length) await tx.query('DELETE FROM items WHERE key = ANY($1::text[])', [plan.deletes]);
  for (const part of chunks(plan.updates, CHUNK)) {
    await tx.query(UPDATE_ITEMS, [
      JSON.stringify(part.map(({ oldKey, row }) => ({ old_key: oldKey, ...itemRecord(row) }))),
    ]);
  }
  for (const part of chunks(plan.inserts, CHUNK)) {
    await tx.query(INSERT_ITEMS, [JSON.stringify(part.map(itemRecord))]);
  }
  if (plan.rekeys.length) {
    const mapping = JSON.stringify(
      plan.rekeys.map(({ oldKey, newKey }) => ({ old_key: oldKey, new_key: newKey })),
    );
    await tx.query(REKEY_EDITION_ITEMS, [mapping]);
    await tx.query(REKEY_DECISIONS, [mapping]);
  }
}

export function itemRecord(item: StoredItem): Record<string, unknown> {
  return {
    key: item.key,
    canonical_url: item.canonicalUrl,
    arxiv_id: item.arxivId,
    url: item.url,
    title: item.title,
    text: item.text,
    authors: item.authors,
    image: item.image,
    published_at: item.publishedAt,
    upvotes: item.upvotes,
    citations: item.citations,
    primary_source: item.primarySource,
    sources: item.sources,
    manual_week: item.manual?.week ?? null,
    manual_note: item.manual?.note ?? null,
    first_seen_at: item.firstSeenAt,
  };
}
