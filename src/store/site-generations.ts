// Which published site is current. Every instance writes the site into its own folder from the store; a publish or
// a correction adds a generation here once its site is written, and each instance, seeing a generation newer than
// the one it serves, writes the site again (compose/site-sync.ts). A row per generation (not one counter row) so
// two publishes never wait on each other's row lock.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export interface SiteGeneration {
  generation: number;
  /** The week whose publish or correction made it. */
  week: string;
}

export interface SiteGenerationsPort {
  /** The newest generation, or null before the first publish. */
  current(): Promise<SiteGeneration | null>;
  /** A new generation, after `week`'s site was written from the store. */
  add(week: string): Promise<SiteGeneration>;
  /**
   * The weeks published or corrected after `generation`, or null when the rows that would say are gone (so many
   * generations ago that the caller should take every week).
   */
  weeksAfter(generation: number): Promise<string[] | null>;
}

export function siteGenerationsStore(db: Kysely<Database>): SiteGenerationsPort {
  return {
    async current() {
      const row = await db
        .selectFrom('site_generations')
        .select(['generation', 'week'])
        .orderBy('generation', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { generation: Number(row.generation), week: row.week } : null;
    },
    async add(week) {
      const row = await db
        .insertInto('site_generations')
        .values({ week })
        .returning(['generation', 'week'])
        .executeTakeFirstOrThrow();
      // Only the newest matters; older rows go in the same breath (the table stays a few rows long).
      await sql`DELETE FROM site_generations WHERE generation < ${row.generation}::bigint - 100`.execute(db);
      return { generation: Number(row.generation), week: row.week };
    },
    async weeksAfter(generation) {
      const rows = await db
        .selectFrom('site_generations')
        .select(['generation', 'week'])
        .where('generation', '>=', String(generation))
        .orderBy('generation')
        .execute();
      // The row of `generation` itself shows that nothing after it was deleted.
      if (Number(rows[0]?.generation) !== generation) return null;
      return [...new Set(rows.slice(1).map((row) => row.week))];
    },
  };
}
