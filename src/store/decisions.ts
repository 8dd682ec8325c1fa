// Editor decisions for one week's edition: pin an item in, or skip it.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';
import type { EditorDecision } from './types.js';

/**
 * Pins or skips an item for a week (null removes the decision). `by` names the editor (the desk); a decision
 * without one (the CLI) leaves the recorded editor as it was.
 */
export async function setDecision(
  db: Kysely<Database>,
  week: string,
  itemKey: string,
  decision: EditorDecision | null,
  by: string | null = null,
): Promise<void> {
  if (decision === null) {
    await db.deleteFrom('decisions').where('week', '=', week).where('item_key', '=', itemKey).execute();
    return;
  }
  const editor = by === null ? {} : { decided_by: by };
  await db
    .insertInto('decisions')
    .values({ week, item_key: itemKey, decision, ...editor })
    .onConflict((conflict) =>
      conflict.columns(['week', 'item_key']).doUpdateSet({ decision, ...editor, decided_at: sql`now()` }),
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
