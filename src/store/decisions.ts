// Editor decisions for one week's edition: pin an item in, or skip it (the CLI's `digest decide` and the desk).
// Its port, DecisionsPort, is declared in core/ports.ts: selection reads it.
import { type Kysely, sql } from 'kysely';
import type { DecisionsPort, EditorDecision } from '../core/ports.js';
import { isoTimestamp } from './_values.js';
import type { Database } from './schema.js';

export function decisionsStore(db: Kysely<Database>): DecisionsPort {
  return {
    async set({ week, itemKey, decision, by }) {
      if (decision === null) {
        await db.deleteFrom('decisions').where('week', '=', week).where('item_key', '=', itemKey).execute();
        return;
      }
      const editor = by === undefined ? {} : { decided_by: by };
      await db
        .insertInto('decisions')
        .values({ week, item_key: itemKey, decision, ...editor })
        .onConflict((conflict) =>
          conflict.columns(['week', 'item_key']).doUpdateSet({ decision, ...editor, decided_at: sql`now()` }),
        )
        .execute();
    },

    // One week's decisions: a handful of rows, the read is bounded by the week.
    async get(week) {
      const rows = await db
        .selectFrom('decisions')
        .select(['item_key', 'decision'])
        .where('week', '=', week)
        .orderBy('decided_at')
        .orderBy('item_key')
        .execute();
      return new Map<string, EditorDecision>(rows.map((row) => [row.item_key, row.decision]));
    },

    async list(week) {
      const rows = await db
        .selectFrom('decisions')
        .select(['item_key', 'decision', 'decided_by', 'decided_at'])
        .where('week', '=', week)
        .orderBy('decided_at')
        .orderBy('item_key')
        .execute();
      return rows.map((row) => ({
        itemKey: row.item_key,
        decision: row.decision,
        decidedBy: row.decided_by,
        decidedAt: isoTimestamp(row.decided_at),
      }));
    },
  };
}
