// The little the store needs from a database: one set of SQL (PostgreSQL dialect, $1 params) for both engines.

export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface SqlExecutor {
  /** One statement with $1… parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<Row>>;
  /** A script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
