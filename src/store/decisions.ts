// Editor decisions for one week's edition: pin an item in, or skip it.
import type { SqlExecutor } from './sql-client.js';
import type { EditorDecision } from './types.js';

export async function setDecision(
  db: SqlExecutor,
  week: string,
  itemKey: string,
  decision: EditorDecision | null,
): Promise<void> {
  if (decision === null) {
    await db.query('DELETE FROM decisions WHERE week = $1::date AND item_key = $2', [week, itemKey]);
    return;
  }
  await db.query(
    `INSERT INTO decisions (week, item_key, decision) VALUES ($1::date, $2, $3)
     ON CONFLICT (week, item_key) DO UPDATE SET decision = excluded.decision, decided_at = now()`,
    [week, itemKey, decision],
  );
}

export async function decisions(db: SqlExecutor, week: string): Promise<Map<string, EditorDecision>> {
  const { rows } = await db.query<{ item_key: string; decision: EditorDecision }>(
    'SELECT item_key, decision FROM decisions WHERE week = $1::date ORDER BY decided_at, item_key',
    [week],
  );
  return new Map(rows.map((row) => [row.item_key, row.decision]));
}
