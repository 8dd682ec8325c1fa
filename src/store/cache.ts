// A JSON cache in the database (LLM answers, enrichment results), namespaced, with an optional time to live.
import { storableText, toJson } from './_values.js';
import type { SqlExecutor } from './sql-client.js';

export async function cacheGet<T>(db: SqlExecutor, namespace: string, key: string): Promise<T | null> {
  const { rows } = await db.query<{ value: T }>(
    `SELECT value FROM cache
     WHERE namespace = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > clock_timestamp())`,
    [storableText(namespace), storableText(key)],
  );
  return rows[0]?.value ?? null;
}

export async function cachePut(
  db: SqlExecutor,
  namespace: string,
  key: string,
  value: unknown,
  ttlSeconds?: number,
): Promise<void> {
  const ttl = ttlSeconds === undefined || !Number.isFinite(ttlSeconds) ? null : ttlSeconds;
  await db.query(
    `INSERT INTO cache (namespace, key, value, expires_at)
     VALUES ($1, $2, $3::jsonb, CASE WHEN $4::double precision IS NULL THEN NULL
       ELSE clock_timestamp() + make_interval(secs => $4::double precision) END)
     ON CONFLICT (namespace, key) DO UPDATE
       SET value = excluded.value, expires_at = excluded.expires_at, created_at = clock_timestamp()`,
    [storableText(namespace), storableText(key), toJson(value), ttl],
  );
}

/** Drops expired entries; run on open so the table does not grow without bound. */
export async function pruneCache(db: SqlExecutor): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM cache WHERE expires_at <= clock_timestamp()');
  return rowCount;
}
