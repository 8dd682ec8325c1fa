// An item row and a StoredItem, both ways: the row type is the schema's (schema.ts), read with selectAll().
import type { Selectable } from 'kysely';
import type { StoredItem } from '../core/types.js';
import { isoTimestamp } from './_values.js';
import type { ItemsTable } from './schema.js';

export type ItemRow = Selectable<ItemsTable>;

export function toStoredItem(row: ItemRow): StoredItem {
  return {
    key: row.key,
    canonicalUrl: row.canonical_url,
    url: row.url,
    title: row.title,
    text: row.text,
    authors: row.authors,
    arxivId: row.arxiv_id,
    image: row.image,
    publishedAt: isoTimestamp(row.published_at),
    upvotes: row.upvotes,
    citations: row.citations,
    primarySource: row.primary_source,
    sources: row.sources,
    manual: row.manual_week ? { week: row.manual_week, note: row.manual_note } : null,
    firstSeenAt: isoTimestamp(row.first_seen_at),
  };
}

/** A planned row as the JSON object jsonb_populate_record(null::items, …) reads (column name → JSON value). */
export type ItemRecord = { [Column in keyof ItemsTable]: unknown };

export function toItemRecord(item: StoredItem): ItemRecord {
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
    updated_at: item.firstSeenAt,
  };
}
