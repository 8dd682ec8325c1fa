// Kysely over PostgreSQL (a pg pool) or over PGlite (one embedded session): the same typed queries on both.
import type { PGliteInterface } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import type { Logger } from '../core/ports.js';
import { DATE_OID } from './_values.js';
import { pgliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export function pgliteDatabase(pglite: PGliteInterface, options: { ownsDatabase?: boolean } = {}): Db {
  return new Kysely<Database>({ dialect: pgliteDialect(pglite, options) });
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
