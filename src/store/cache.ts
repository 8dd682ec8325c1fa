// A JSON cache in the database (LLM answers, enrichment results), namespaced, with an optional time to live.
// Its port, CachePort, is declared in core/ports.ts: the stages use it.
import { type Kysely, sql } from 'kysely';
import type { CachePort } from '../core/ports.js';
import { json, storableText } from './_values.js';
import type { Database } from './schema.js';

export function cacheStore(db: Kysely<Database>): CachePort {
  return {
    async get<T>(namespace: string, key: string): Promise<T | null> {
      const row = await db
        .selectFrom('cache')
        .select('value')
        .where('namespace', '=', storableText(namespace))
        .where('key', '=', storableText(key))
        .where((eb) =>
          eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`clock_timestamp()`)]),
        )
        .executeTakeFirst();
      return (row?.value as T | undefined) ?? null;
    },

    async put({ namespace, key, value, ttlSeconds }) {
      const ttl = ttlSeconds === undefined || !Number.isFinite(ttlSeconds) ? null : ttlSeconds;
      await db
        .insertInto('cache')
        .values({
          namespace: storableText(namespace),
          key: storableText(key),
          value: json(value),
          expires_at:
            ttl === null
              ? null
              : sql<Date>`clock_timestamp() + make_interval(secs => ${ttl}::double precision)`,
        })
        .onConflict((conflict) =>
          conflict.columns(['namespace', 'key']).doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            expires_at: eb.ref('excluded.expires_at'),
            created_at: sql`clock_timestamp()`,
          })),
        )
        .execute();
    },
  };
}

/** Drops expired entries; run on open so the table does not grow without bound. */
export async function pruneCache(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom('cache')
    .where('expires_at', '<=', sql<Date>`clock_timestamp()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
