// A log of ingest runs, for status pages and "when did we last fetch".
import type { Kysely } from 'kysely';
import type { SourceReport } from '../core/types.js';
import { isoTimestamp, json } from './_values.js';
import type { Database } from './schema.js';

/** One ingest as it ran: when, and what each source reported. */
export interface IngestRun {
  startedAt: string;
  finishedAt: string;
  sources: SourceReport[];
}

export interface IngestRunsPort {
  record(run: IngestRun): Promise<void>;
  /** The most recently finished ingest run, or null. */
  last(): Promise<IngestRun | null>;
}

export function ingestRunsStore(db: Kysely<Database>): IngestRunsPort {
  return {
    async record(run) {
      await db
        .insertInto('ingest_runs')
        .values({ started_at: run.startedAt, finished_at: run.finishedAt, sources: json(run.sources) })
        .execute();
    },

    async last() {
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
    },
  };
}
