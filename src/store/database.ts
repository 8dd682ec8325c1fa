// Kysely over PostgreSQL (a pg pool) or over PGlite (one embedded session): the same typed queries on both.
import type { PGliteInterface } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import type { Logger } from '../core/ports.js';
import { DATE_OID } from './_values.js';
import { pgliteDialect } from './pglite-dialect.js';
import { sessionLock } from './pglite-session.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** The PGlite under each Kysely made here, for the few statements Kysely cannot send (a script: see scripts()). */
const embedded = new WeakMap<object, PGliteInterface>();

export function pgliteDatabase(pglite: PGliteInterface, options: { ownsDatabase?: boolean } = {}): Db {
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite, options) });
  embedded.set(db, pglite);
  return db;
}

/**
 * A runner of multi-statement scripts on the PGlite under `db` (null for any other database), taking the session
 * like every other caller; a script that fails inside its transaction leaves none open behind it.
 */
export function scripts(db: object): ((script: string) => Promise<void>) | null {
  const pglite = embedded.get(db);
  if (!pglite) return null;
  return async (script) => {
    const release = await sessionLock(pglite).acquire();
    try {
      await pglite.exec(script);
    } catch (error) {
      if (pglite.isInTransaction()) await pglite.exec('rollback');
      throw error;
    } finally {
      release();
    }
  };
}

/** pg loads only when PostgreSQL is used. */
export async function postgresDatabase(databaseUrl: string, log?: Logger): Promise<Db> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    connectionTimeoutMillis: 15_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID
          ? (value: string) => value
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection dropped by the server must not take the process down; the next query reconnects.
  pool.on('error', (error) => log?.warn(`store: PostgreSQL connection lost: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
