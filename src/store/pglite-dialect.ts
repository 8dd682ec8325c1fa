// A Kysely dialect over an embedded PGlite: PostgreSQL's adapter, query compiler and introspector, and a driver
// with one connection (PGlite is one session), handed to one user at a time so a transaction never interleaves
// with another caller's statements. Written here rather than taken from kysely-pglite, which pulls in a CLI
// (oclif, kysely-codegen, chokidar…) for these ~80 lines.
import type { PGliteInterface } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { DATE_OID } from './_values.js';
import { type SessionLock, sessionLock } from './pglite-session.js';

/** Dates as the text PostgreSQL prints ('YYYY-MM-DD'), as on the pg pool: never a local-midnight Date. */
const PARSERS = { [DATE_OID]: (value: string) => value };

export function pgliteDialect(pglite: PGliteInterface, options: { ownsDatabase?: boolean } = {}): Dialect {
  return {
    createAdapter: (): DialectAdapter => new PostgresAdapter(),
    createDriver: (): Driver => new PgliteDriver(pglite, options.ownsDatabase ?? true),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new PostgresIntrospector(db),
    createQueryCompiler: (): QueryCompiler => new PostgresQueryCompiler(),
  };
}

class PgliteDriver implements Driver {
  readonly #connection: PgliteConnection;
  /** Shared with the socket `digest serve` opens (pglite-session.ts): one holder of the session at a time. */
  readonly #session: SessionLock;
  #release: (() => void) | null = null;

  constructor(
    private readonly pglite: PGliteInterface,
    private readonly owns: boolean,
  ) {
    this.#connection = new PgliteConnection(pglite);
    this.#session = sessionLock(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#session.acquire();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode,
    ]
      .filter(Boolean)
      .join(' ');
    await connection.executeQuery(CompiledQuery.raw(mode ? `start transaction ${mode}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
  }

  async destroy(): Promise<void> {
    if (this.owns && !this.pglite.closed) await this.pglite.close();
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGliteInterface) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters], { parsers: PARSERS });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && result.command !== 'SELECT' ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; a caller gets a clear error instead.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite: streaming queries are not supported; page with limit/offset instead');
  }
}
