// One process at a time for a named job (the schedule's weekly build of one edition). On PostgreSQL several
// `digest serve` instances may share the database: a session advisory lock, held on one connection while the job
// runs and released with it (or when the connection dies), decides who runs it. An embedded PGlite folder is open
// in one process only (its lock file), so there the job just runs.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export type JobLockKind = 'advisory' | 'process';

export type JobLockResult<T> = { acquired: true; value: T } | { acquired: false };

/** Processes sharing one database: who runs a job. */
export interface JobsPort {
  /**
   * Runs `fn` unless another process runs the job `name` now (PostgreSQL: a session advisory lock; PGlite: the data
   * folder's lock already makes this process the only one); `{ acquired: false }`, without running it, when one does.
   */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<JobLockResult<T>>;
}

export function jobsStore(db: Kysely<Database>, kind: JobLockKind): JobsPort {
  return {
    async withLock(name, fn) {
      if (kind === 'process') return { acquired: true, value: await fn() };
      return db.connection().execute(async (connection) => {
        const key = sql`hashtextextended(${name}, 0)`;
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
        if (!rows[0]?.locked) return { acquired: false } as const;
        try {
          return { acquired: true, value: await fn() } as const;
        } finally {
          await sql`select pg_advisory_unlock(${key})`.execute(connection);
        }
      });
    },
  };
}
