// "Run once per slot across instances": the first process to insert (job, slot) runs it; the others, on the same
// database, find the row and skip. Unlike the advisory lock of job-lock.ts, which only keeps two runs from
// overlapping, the claim outlives the run, so an instance whose timer fires later (or after a restart) does not
// run the slot again. A run that throws gives its claim back, so the next tick (on any instance) tries again; a
// process that dies mid-run leaves the slot claimed and unfinished (`scheduled_runs.finished_at` null) for the
// operator to look at, rather than running a send or a backup twice.
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export type SlotRun<T> = { ran: true; value: T } | { ran: false; claimedBy: string };

export interface ScheduledRunsPort {
  /**
   * Runs `fn` unless some process (this one included) claimed `slot` of `job` before: a week (`2026-05-04`), a day,
   * an hour — whatever the job's schedule counts in. `{ ran: false, claimedBy }` names the instance that has it.
   */
  runOnce<T>(job: string, slot: string, fn: () => Promise<T>): Promise<SlotRun<T>>;
}

/** The instance named in a claim: the machine and the process. */
export const instanceName = (): string => `${hostname()}:${process.pid}`;

export function scheduledRunsStore(db: Kysely<Database>, instance = instanceName()): ScheduledRunsPort {
  return {
    async runOnce(job, slot, fn) {
      const claimed = await db
        .insertInto('scheduled_runs')
        .values({ job, slot, instance, finished_at: null })
        .onConflict((conflict) => conflict.columns(['job', 'slot']).doNothing())
        .returning('instance')
        .executeTakeFirst();
      if (!claimed) {
        const holder = await db
          .selectFrom('scheduled_runs')
          .select('instance')
          .where('job', '=', job)
          .where('slot', '=', slot)
          .executeTakeFirst();
        return { ran: false, claimedBy: holder?.instance ?? 'unknown' };
      }
      const mine = db.updateTable('scheduled_runs').where('job', '=', job).where('slot', '=', slot);
      const value = await fn().catch(async (error: unknown) => {
        await db.deleteFrom('scheduled_runs').where('job', '=', job).where('slot', '=', slot).execute();
        throw error;
      });
      // The database's clock, as for the claim: one clock for every instance's rows.
      await mine.set({ finished_at: sql<Date>`now()` }).execute();
      return { ran: true, value };
    },
  };
}
