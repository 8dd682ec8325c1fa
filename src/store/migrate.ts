// Applies pending migrations on open through Kysely's Migrator: all in one transaction under an advisory lock,
// so concurrent openers of one PostgreSQL database migrate it once and a half-migrated database is never left.
// A store whose last applied migration is this program's last costs one query (no Migrator: its lock, table
// checks and listing took ~100–250 ms of every command's start).
// The migrations themselves load only when one is due: the fast path reads the last one's name from migrations/.
import { readdirSync } from 'node:fs';
import { type Kysely, Migrator, sql } from 'kysely';
import type { Logger } from '../core/ports.js';
import type { Database } from './schema.js';

export interface MigrationResult {
  applied: string[];
}

/**
 * The name of this program's last migration, from the files of migrations/ (`NNN-name.ts`, compiled `.js`), so
 * knowing it loads none of them; test/store/migrate.test.ts holds it equal to migrations/index.ts's last.
 */
export function lastMigration(): string | undefined {
  return migrationFiles()?.at(-1);
}

/** Every migration this program has, oldest first (a backup's level is judged against them). */
export async function knownMigrations(): Promise<string[]> {
  return Object.keys((await import('./migrations/index.js')).MIGRATIONS);
}

function migrationFiles(): string[] | undefined {
  try {
    // Up and into store/: the same folder from src/store/, from dist/cli/ and from dist/chunks/ (scripts/build.mjs).
    return readdirSync(new URL('../store/migrations/', import.meta.url))
      .filter((name) => /^\d{3}-[a-z0-9-]+\.(?:js|ts)$/.test(name))
      .map((name) => name.replace(/\.(?:js|ts)$/, ''))
      .sort();
  } catch {
    // Not a folder of files (a bundle): the Migrator below finds out what is due.
    return undefined;
  }
}

/**
 * Migrates an empty or older database up to `name` and no further (a restore of an older backup, and the tests
 * that write rows at each level), in one transaction like `migrate`.
 */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<MigrationResult> {
  const { migrationProvider } = await import('./migrations/index.js');
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateTo(name);
  if (error) throw new Error(`migrating to ${name} failed: ${errorText(error)}`, { cause: error });
  return {
    applied: results.filter((result) => result.status === 'Success').map((result) => result.migrationName),
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function migrate(db: Kysely<Database>, log?: Logger): Promise<MigrationResult> {
  const last = lastMigration();
  if (last !== undefined && (await lastApplied(db)) === last) return { applied: [] };
  const { MIGRATIONS, migrationProvider } = await import('./migrations/index.js');
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const applied = results
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
  for (const name of applied) log?.debug(`store: applied migration ${name}`);
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    const missing = /previously executed migration (\S+) is missing/.exec(message);
    if (missing) {
      throw new Error(
        `the database has migration ${missing[1]}, newer than this program knows (${Object.keys(MIGRATIONS).at(-1)}); upgrade digest`,
        { cause: error },
      );
    }
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(failed ? `migration ${failed.migrationName} failed: ${message}` : message, {
      cause: error,
    });
  }
  return { applied };
}

/** The name of the last migration applied to the database; null when none was (no migration table yet). */
async function lastApplied(db: Kysely<Database>): Promise<string | null> {
  try {
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration order by name desc limit 1`.execute(db);
    return rows[0]?.name ?? null;
  } catch {
    return null;
  }
}
