// A JSON cache in the database (LLM answers, enrichment results), namespaced, with an optional time to live.
// Its port, CachePort, is declared in core/ports.ts: the stages use it.
import { type Kysely, sql } from 'kysely';
import type { CachePort } from '../core/ports.js';
import { json, storableText } from './_values.js';
import type { Database } from './schema.js';

export function cacheStore(db: Kysely<Database>): CachePort {
  /** The live entries of `namespace` among `keys` (stored forms). */
  const live = (namespace: string, keys: string[]) =>
    db
      .selectFrom('cache')
      .select(['key', 'value'])
      .where('namespace', '=', storableText(namespace))
      .where('key', 'in', keys)
      .where((eb) =>
        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`clock_timestamp()`)]),
      );
  return {
    async get<T>(namespace: string, key: string): Promise<T | null> {
      const row = await live(namespace, [storableText(key)]).executeTakeFirst();
      return (row?.value as T | undefined) ?? null;
    },

    async getMany<T>(namespace: string, keys: readonly string[]): Promise<Map<string, T>> {
      const found = new Map<string, T>();
      if (!keys.length) return found;
      const rows = await live(namespace, [...new Set(keys.map(storableText))]).execute();
      const values = new Map(rows.map((row) => [row.key, row.value as T]));
      for (const key of keys) {
        const value = values.get(storableText(key));
        if (value !== null && value !== undefined) found.set(key, value);
      }
      return found;
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
