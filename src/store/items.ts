// Storing, reading and editing items. Its port, ItemsPort, is declared in core/ports.ts: the stages use it.
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { addDays } from '../core/dates.js';
import { StoreError } from '../core/errors.js';
import type { ItemPatch, ItemsPort, Logger } from '../core/ports.js';
import type { DateWindow, SourceItem, StoredItem } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { json, storableText } from './_values.js';
import { toStoredItem } from './item-rows.js';
import type { Database } from './schema.js';
import { upsertItemsIn } from './upsert-items.js';

type Db = Kysely<Database>;

/** `log` hears about items an upsert skips. */
export function itemsStore(db: Db, log?: Logger): ItemsPort {
  return {
    ...bindQueries(db, {
      get: getItem,
      candidates: listCandidates,
      addManual: addManualItem,
      update: updateItem,
    }),
    async upsert(items) {
      if (!items.length) return { inserted: 0, merged: 0, skipped: 0 };
      const { inserted, merged, skipped } = await db
        .transaction()
        .execute((tx) => upsertItemsIn(tx, items, log));
      return { inserted, merged, skipped };
    },
  };
}

async function listCandidates(db: Db, window: DateWindow): Promise<StoredItem[]> {
  const rows = await db
    .selectFrom('items')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb('published_at', '>=', new Date(`${window.start}T00:00:00Z`)),
          eb('published_at', '<', new Date(`${addDays(window.end, 1)}T00:00:00Z`)),
        ]),
        eb('manual_week', '=', window.end),
      ]),
    )
    .orderBy('published_at', 'desc')
    .orderBy('key')
    .execute();
  return rows.map(toStoredItem);
}

/**
 * The row a key names. A key that has since changed (a URL-keyed item that learnt its arXiv id) still finds the
 * item through the canonical URL or arXiv id it names; the exact key wins.
 */
function namedBy(key: string) {
  return (eb: ExpressionBuilder<Database, 'items'>) =>
    eb.or([
      eb('key', '=', key),
      ...(key.startsWith('url:') ? [eb('canonical_url', '=', key.slice(4))] : []),
      ...(key.startsWith('arxiv:') ? [eb('arxiv_id', '=', key.slice(6))] : []),
    ]);
}

async function getItem(db: Db, key: string): Promise<StoredItem | null> {
  const row = await db
    .selectFrom('items')
    .selectAll()
    .where(namedBy(key))
    .orderBy(sql`key = ${key}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toStoredItem(row) : null;
}

async function addManualItem(
  db: Db,
  item: SourceItem,
  week: string,
  note: string | null,
): Promise<StoredItem> {
  return db.transaction().execute(async (tx) => {
    const outcome = await upsertItemsIn(tx, [item]);
    const key = outcome.keys[0];
    if (!key)
      throw new StoreError(`Cannot store ${item.url}: it needs an http(s) URL or an arXiv id and a date.`);
    await tx
      .updateTable('items')
      .set({
        manual_week: week,
        manual_note: note === null ? null : storableText(note),
        updated_at: sql`now()`,
      })
      .where('key', '=', key)
      .execute();
    const stored = await getItem(tx, key);
    if (!stored) throw new StoreError(`The manual item ${key} vanished while it was being stored.`);
    return stored;
  });
}

async function updateItem(db: Db, key: string, patch: ItemPatch): Promise<void> {
  const set = {
    ...(patch.title !== undefined && { title: storableText(patch.title) }),
    ...(patch.text !== undefined && { text: storableText(patch.text) }),
    ...(patch.authors !== undefined && { authors: json(patch.authors) }),
    ...(patch.image !== undefined && { image: patch.image === null ? null : storableText(patch.image) }),
    ...(patch.citations !== undefined && { citations: validCount(patch.citations) }),
  };
  if (!Object.keys(set).length) return;
  const target = db
    .selectFrom('items')
    .select('key')
    .where(namedBy(key))
    .orderBy(sql`key = ${key}`, 'desc')
    .limit(1);
  const result = await db
    .updateTable('items')
    .set({ ...set, updated_at: sql`now()` })
    .where('key', '=', target)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new StoreError(`No stored item has the key "${key}".`);
}

function validCount(value: unknown): number | null {
  const count = Number(value);
  return value === null || !Number.isFinite(count)
    ? null
    : Math.max(0, Math.min(2_147_483_647, Math.round(count)));
}
