// One process at a time for a named job (the schedule's weekly build of one edition). On PostgreSQL several
// `digest serve` instances may share the database: a session advisory lock, held on one connection while the job
// runs and released with it (or when the connection dies), decides who runs it. An embedded PGlite folder is open
// in one process only (its lock file), so there the job just runs.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';
import type { JobLockResult } from './types.js';

export type JobLockKind = 'advisory' | 'process';

export async function withJobLock<T>(
  db: Kysely<Database>,
  kind: JobLockKind,
  name: string,
  fn: () => Promise<T>,
): Promise<JobLockResult<T>> {
  if (kind === 'process') return { acquired: true, value: await fn() };
  return db.connection().execute(async (connection) => {
    const key = sql`hashtextextended(${name}, 0)`;
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(
      connection,
    );
    if (!rows[0]?.locked) return { acquired: false } as const;
    try {
      return { acquired: true, value: await fn() } as const;
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}
