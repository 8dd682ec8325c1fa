// SqlClient over an embedded PGlite database.
import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

type PgliteQuerier = Pick<PGliteInterface, 'query' | 'exec'> | Transaction;

function executor(querier: PgliteQuerier): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<SqlResult<Row>> {
      const result = await querier.query<Row>(sql, params);
      return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await querier.exec(sql);
    },
  };
}

/** `ownsDatabase: false` leaves the PGlite instance open on close (the caller closes it). */
export function pgliteClient(pglite: PGliteInterface, options: { ownsDatabase?: boolean } = {}): SqlClient {
  const owns = options.ownsDatabase ?? true;
  return {
    ...executor(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(executor(tx))),
    async close() {
      if (owns && !pglite.closed) await pglite.close();
    },
  };
}
