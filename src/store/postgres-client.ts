// SqlClient over a PostgreSQL server through a pg connection pool.
import type { Pool, PoolClient } from 'pg';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

type PgQuerier = Pick<Pool, 'query'> | PoolClient;

function executor(querier: PgQuerier): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<SqlResult<Row>> {
      const result = await querier.query(sql, params);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await querier.query(sql);
    },
  };
}

export function postgresClient(pool: Pool): SqlClient {
  return {
    ...executor(pool),
    async transaction(fn) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await fn(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // A connection that cannot roll back must not go back to the pool.
          broken = rollbackError;
        }
        throw error;
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}
