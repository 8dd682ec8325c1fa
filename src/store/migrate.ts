// Applies pending migrations on open, all in one transaction: a half-migrated database cannot be left behind.
import type { Logger } from '../core/ports.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SqlClient } from './sql-client.js';

/** Any constant works; it only has to be the same for every opener of this database. */
const MIGRATION_LOCK = 4_271_020_501;

export interface MigrationResult {
  applied: number[];
  /** Newest version this database now has. */
  version: number;
}

export async function migrate(
  client: SqlClient,
  log?: Logger,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationResult> {
  return client.transaction(async (tx) => {
    // Concurrent openers of one PostgreSQL database wait here instead of racing on CREATE TABLE.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const known = Math.max(0, ...migrations.map((migration) => migration.version));
    const newest = Math.max(0, ...done);
    if (newest > known) {
      throw new Error(
        `the database has schema version ${newest}, newer than this program knows (${known}); upgrade digest`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      log?.debug(`store: applying migration ${migration.version} (${migration.name})`);
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return { applied, version: Math.max(newest, ...applied) };
  });
}
