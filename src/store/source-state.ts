// Ingest bookkeeping: per-source conditional-GET validators, and a log of ingest runs.
import type { SourceState } from '../core/ports.js';
import { isoTimestamp, toJson } from './_values.js';
import type { SqlExecutor } from './sql-client.js';
import type { IngestRun } from './types.js';

export async function getSourceState(db: SqlExecutor, sourceId: string): Promise<SourceState> {
  const { rows } = await db.query<{ state: SourceState }>(
    'SELECT state FROM source_state WHERE source_id = $1',
    [sourceId],
  );
  return rows[0]?.state ?? {};
}

export async function setSourceState(db: SqlExecutor, sourceId: string, state: SourceState): Promise<void> {
  await db.query(
    `INSERT INTO source_state (source_id, state) VALUES ($1, $2::jsonb)
     ON CONFLICT (source_id) DO UPDATE SET state = excluded.state, updated_at = now()`,
    [sourceId, toJson(state)],
  );
}

export async function recordIngestRun(db: SqlExecutor, run: IngestRun): Promise<void> {
  await db.query(
    'INSERT INTO ingest_runs (started_at, finished_at, sources) VALUES ($1::timestamptz, $2::timestamptz, $3::jsonb)',
    [run.startedAt, run.finishedAt, toJson(run.sources)],
  );
}

export async function lastIngestRun(db: SqlExecutor): Promise<IngestRun | null> {
  const { rows } = await db.query<{
    started_at: Date | string;
    finished_at: Date | string;
    sources: IngestRun['sources'];
  }>('SELECT started_at, finished_at, sources FROM ingest_runs ORDER BY finished_at DESC, id DESC LIMIT 1');
  const row = rows[0];
  return row
    ? {
        startedAt: isoTimestamp(row.started_at),
        finishedAt: isoTimestamp(row.finished_at),
        sources: row.sources,
      }
    : null;
}
