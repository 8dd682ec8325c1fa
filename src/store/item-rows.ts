// How an item row reads back into a StoredItem.
import type { ItemSourceRef, StoredItem } from '../core/types.js';
import { isoTimestamp } from './_values.js';

/** Dates as text so neither driver turns a `date` into a local-time Date. */
export const ITEM_COLUMNS = `key, canonical_url, arxiv_id, url, title, text, authors, image, published_at, upvotes,
  citations, primary_source, sources, to_char(manual_week, 'YYYY-MM-DD') AS manual_week, manual_note, first_seen_at`;

export interface ItemRow {
  key: string;
  canonical_url: string;
  arxiv_id: string | null;
  url: string;
  title: string;
  text: string;
  authors: string[];
  image: string | null;
  published_at: Date | string;
  upvotes: number | null;
  citations: number | null;
  primary_source: string;
  sources: ItemSourceRef[];
  manual_week: string | null;
  manual_note: string | null;
  first_seen_at: Date | string;
}

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
