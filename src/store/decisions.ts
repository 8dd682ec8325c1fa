// Editor decisions for one week's edition: pin an item in, or skip it.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';
import type { EditorDecision } from './types.js';

export async function setDecision(
  db: Kysely<Database>,
  week: string,
  itemKey: string,
  decision: EditorDecision | null,
): Promise<void> {
  if (decision === null) {
    await db.deleteFrom('decisions').where('week', '=', week).where('item_key', '=', itemKey).execute();
    return;
  }
  await db
    .insertInto('decisions')
    .values({ week, item_key: itemKey, decision })
    .onConflict((conflict) =>
      conflict
        .columns(['week', 'item_key'])
        .doUpdateSet((eb) => ({ decision: eb.ref('excluded.decision'), decided_at: sql`now()` })),
    )
    .execute();
}

/** One week's decisions (a handful of rows: the read is bounded by the week). */
export async function decisions(db: Kysely<Database>, week: string): Promise<Map<string, EditorDecision>> {
  const rows = await db
    .selectFrom('decisions')
    .select(['item_key', 'decision'])
    .where('week', '=', week)
    .orderBy('decided_at')
    .orderBy('item_key')
    .execute();
  return new Map(rows.map((row) => [row.item_key, row.decision]));
}
