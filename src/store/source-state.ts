// Ingest bookkeeping: per-source conditional-GET validators, and a log of ingest runs.
import { type Kysely, sql } from 'kysely';
import type { SourceState } from '../core/ports.js';
import { isoTimestamp, json } from './_values.js';
import type { Database } from './schema.js';
import type { IngestRun } from './types.js';

export async function getSourceState(db: Kysely<Database>, sourceId: string): Promise<SourceState> {
  const row = await db
    .selectFrom('source_state')
    .select('state')
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return row?.state ?? {};
}

export async function setSourceState(
  db: Kysely<Database>,
  sourceId: string,
  state: SourceState,
): Promise<void> {
  await db
    .insertInto('source_state')
    .values({ source_id: sourceId, state: json(state) })
    .onConflict((conflict) =>
      conflict
        .column('source_id')
        .doUpdateSet((eb) => ({ state: eb.ref('excluded.state'), updated_at: sql`now()` })),
    )
    .execute();
}

export async function recordIngestRun(db: Kysely<Database>, run: IngestRun): Promise<void> {
  await db
    .insertInto('ingest_runs')
    .values({ started_at: run.startedAt, finished_at: run.finishedAt, sources: json(run.sources) })
    .execute();
}

export async function lastIngestRun(db: Kysely<Database>): Promise<IngestRun | null> {
  const row = await db
    .selectFrom('ingest_runs')
    .select(['started_at', 'finished_at', 'sources'])
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        startedAt: isoTimestamp(row.started_at),
        finishedAt: isoTimestamp(row.finished_at),
        sources: row.sources,
      }
    : null;
}
