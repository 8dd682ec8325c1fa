// Ingest bookkeeping: per-source conditional-GET validators, kept between runs.
import { type Kysely, sql } from 'kysely';
import type { SourceState } from '../core/ports.js';
import { json } from './_values.js';
import type { Database } from './schema.js';

/** Conditional-GET validators per source. */
export interface SourceStatePort {
  get(sourceId: string): Promise<SourceState>;
  set(sourceId: string, state: SourceState): Promise<void>;
}

export function sourceStateStore(db: Kysely<Database>): SourceStatePort {
  return {
    async get(sourceId) {
      const row = await db
        .selectFrom('source_state')
        .select('state')
        .where('source_id', '=', sourceId)
        .executeTakeFirst();
      return row?.state ?? {};
    },

    async set(sourceId, state) {
      await db
        .insertInto('source_state')
        .values({ source_id: sourceId, state: json(state) })
        .onConflict((conflict) =>
          conflict
            .column('source_id')
            .doUpdateSet((eb) => ({ state: eb.ref('excluded.state'), updated_at: sql`now()` })),
        )
        .execute();
    },
  };
}
