// Reading and editing stored items.
import { addDays } from '../core/dates.js';
import { StoreError } from '../core/errors.js';
import type { DateWindow, SourceItem, StoredItem } from '../core/types.js';
import { storableText, toJson } from './_values.js';
import { ITEM_COLUMNS, type ItemRow, toStoredItem } from './item-rows.js';
import type { SqlClient, SqlExecutor } from './sql-client.js';
import type { Store } from './types.js';
import { upsertItemsIn } from './upsert-items.js';

type ItemPatch = Parameters<Store['updateItem']>[1];

export async function listCandidates(db: SqlExecutor, window: DateWindow): Promise<StoredItem[]> {
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items
     WHERE (published_at >= $1::timestamptz AND published_at < $2::timestamptz) OR manual_week = $3::date
     ORDER BY published_at DESC, key`,
    [`${window.start}T00:00:00Z`, `${addDays(window.end, 1)}T00:00:00Z`, window.end],
  );
  return rows.map(toStoredItem);
}

/**
 * An item by key. A key that has since changed (a URL-keyed item that learnt its arXiv id) still finds the item
 * through the canonical URL or arXiv id it names.
 */
export async function getItem(db: SqlExecutor, key: string): Promise<StoredItem | null> {
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items
     WHERE key = $1
        OR (left($1, 4) = 'url:' AND canonical_url = substr($1, 5))
        OR (left($1, 6) = 'arxiv:' AND arxiv_id = substr($1, 7))
     ORDER BY key = $1 DESC LIMIT 1`,
    [key],
  );
  return rows[0] ? toStoredItem(rows[0]) : null;
}

export async function addManualItem(
  client: SqlClient,
  item: SourceItem,
  week: string,
  note: string | null,
): Promise<StoredItem> {
  return client.transaction(async (tx) => {
    const outcome = await upsertItemsIn(tx, [item]);
    const key = outcome.keys[0];
    if (!key)
      throw new StoreError(`Cannot store ${item.url}: it needs an http(s) URL or an arXiv id and a date.`);
    await tx.query(
      'UPDATE items SET manual_week = $2::date, manual_note = $3, updated_at = now() WHERE key = $1',
      [key, week, note === null ? null : storableText(note)],
    );
    const stored = await getItem(tx, key);
    if (!stored) throw new StoreError(`The manual item ${key} vanished while it was being stored.`);
    return stored;
  });
}

const PATCHABLE: Record<keyof ItemPatch, string> = {
  title: 'title = $%::text',
  text: 'text = $%::text',
  authors: 'authors = $%::jsonb',
  image: 'image = $%::text',
  citations: 'citations = $%::integer',
};

export async function updateItem(db: SqlExecutor, key: string, patch: ItemPatch): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [key];
  for (const [field, value] of Object.entries(patch) as [keyof ItemPatch, unknown][]) {
    if (value === undefined || !(field in PATCHABLE)) continue;
    params.push(patchValue(field, value));
    sets.push(PATCHABLE[field].replace('%', String(params.length)));
  }
  if (!sets.length) return;
  const { rowCount } = await db.query(
    `UPDATE items SET ${sets.join(', ')}, updated_at = now()
     WHERE key = (SELECT key FROM items WHERE key = $1
       OR (left($1, 4) = 'url:' AND canonical_url = substr($1, 5))
       OR (left($1, 6) = 'arxiv:' AND arxiv_id = substr($1, 7))
       ORDER BY key = $1 DESC LIMIT 1)`,
    params,
  );
  if (rowCount === 0) throw new StoreError(`No stored item has the key "${key}".`);
}

function patchValue(field: keyof ItemPatch, value: unknown): unknown {
  if (field === 'authors') return toJson(value);
  if (field === 'citations') {
    const count = Number(value);
    return value === null || !Number.isFinite(count)
      ? null
      : Math.max(0, Math.min(2_147_483_647, Math.round(count)));
  }
  return typeof value === 'string' ? storableText(value) : value;
}
