// The writes of an upsert plan, set-based: a JSON array per statement, unpacked by jsonb_populate_record(set)
// into the items table's own row type, so no column list is restated here.
// Plain JSON.stringify: every string in a planned row already went through storableText (freshItem).
import { type Kysely, sql } from 'kysely';
import { chunks } from './_values.js';
import { type ItemRow, toItemRecord } from './item-rows.js';
import type { Database, ItemsTable } from './schema.js';
import type { UpsertPlan } from './upsert-plan.js';

/** Rows per statement: large enough to amortise a round trip, small enough to keep parameters a few MB. */
const CHUNK = 500;

/** What a merge may change in a stored row (its URLs stay: they are how it was found). */
const MERGED_COLUMNS = [
  'key',
  'arxiv_id',
  'title',
  'text',
  'authors',
  'image',
  'published_at',
  'upvotes',
  'citations',
  'primary_source',
  'sources',
  'manual_week',
  'manual_note',
  'first_seen_at',
] as const satisfies readonly (keyof ItemsTable)[];

export async function writePlan(tx: Kysely<Database>, plan: UpsertPlan): Promise<void> {
  // Absorbed rows go first so their URLs are free before anything else is written.
  if (plan.deletes.length) await tx.deleteFrom('items').where('key', 'in', plan.deletes).execute();
  for (const part of chunks(plan.updates, CHUNK)) {
    const records = part.map(({ oldKey, row }) => ({ ...toItemRecord(row), old_key: oldKey }));
    const incoming = sql<ItemRow & { old_key: string }>`(SELECT e->>'old_key' AS old_key, r.*
      FROM jsonb_array_elements(${JSON.stringify(records)}::jsonb) AS e,
        jsonb_populate_record(null::items, e) AS r)`.as('x');
    await tx
      .updateTable('items as i')
      .from(incoming)
      .set((eb) => ({
        ...Object.fromEntries(MERGED_COLUMNS.map((column) => [column, eb.ref(`x.${column}`)])),
        updated_at: sql`now()`,
      }))
      .whereRef('i.key', '=', 'x.old_key')
      .execute();
  }
  for (const part of chunks(plan.inserts, CHUNK)) {
    const rows = sql<ItemRow>`jsonb_populate_recordset(null::items, ${JSON.stringify(part.map(toItemRecord))}::jsonb)`;
    await tx
      .insertInto('items')
      .expression((eb) => eb.selectFrom(rows.as('x')).selectAll())
      .execute();
  }
  if (plan.rekeys.length) {
    const mapping = JSON.stringify(
      plan.rekeys.map(({ oldKey, newKey }) => ({ old_key: oldKey, new_key: newKey })),
    );
    // A reference that would collide with one already pointing at the new key is dropped (the survivor's wins).
    await sql`WITH m AS (SELECT * FROM jsonb_to_recordset(${mapping}::jsonb) AS m(old_key text, new_key text)),
      moved AS (DELETE FROM edition_items e USING m WHERE e.key = m.old_key RETURNING e.date, m.new_key, e.position)
      INSERT INTO edition_items (date, key, position)
      SELECT DISTINCT ON (date, new_key) date, new_key, position FROM moved ORDER BY date, new_key, position
      ON CONFLICT (date, key) DO NOTHING`.execute(tx);
    await sql`WITH m AS (SELECT * FROM jsonb_to_recordset(${mapping}::jsonb) AS m(old_key text, new_key text)),
      moved AS (DELETE FROM decisions d USING m WHERE d.item_key = m.old_key
        RETURNING d.week, m.new_key, d.decision, d.decided_at)
      INSERT INTO decisions (week, item_key, decision, decided_at)
      SELECT DISTINCT ON (week, new_key) week, new_key, decision, decided_at FROM moved
      ORDER BY week, new_key, decided_at DESC
      ON CONFLICT (week, item_key) DO NOTHING`.execute(tx);
  }
}
