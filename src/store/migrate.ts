// Applies pending migrations on open through Kysely's Migrator: all in one transaction under an advisory lock,
// so concurrent openers of one PostgreSQL database migrate it once and a half-migrated database is never left.
// A store whose last applied migration is this program's last costs one query (no Migrator: its lock, table
// checks and listing took ~100–250 ms of every command's start).
// The migrations are the files of migrations/ (`NNN-name.ts`), applied in the order of their numbers: adding one is
// adding its file. They load only when one is due: the fast path reads the last one's name from the folder.
import { readdirSync } from 'node:fs';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Logger } from '../core/ports.js';
import type { Database } from './schema.js';

export interface MigrationResult {
  applied: string[];
}

// Up and into store/: the same folder from src/store/, from dist/cli/ and from dist/chunks/ (scripts/build.mjs).
const MIGRATIONS_FOLDER = new URL('../store/migrations/', import.meta.url);
const MIGRATION_FILE = /^(\d{3}-[a-z0-9-]+)\.(?:js|ts)$/;

/** The migration files of migrations/ (compiled `.js` or source `.ts`), in the order they apply. */
function migrationFiles(): { name: string; file: string }[] {
  return readdirSync(MIGRATIONS_FOLDER)
    .flatMap((file) => {
      const match = MIGRATION_FILE.exec(file);
      return match ? [{ name: match[1]!, file }] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every migration's name (`001-initial` …), in order, without loading any. */
export function migrationNames(): string[] {
  return migrationFiles().map(({ name }) => name);
}

/** The name of this program's last migration. */
export function lastMigration(): string | undefined {
  return migrationNames().at(-1);
}

/** Every migration, loaded from its file, by name (Kysely's Migrator records each in kysely_migration). */
export async function loadMigrations(): Promise<Record<string, Migration>> {
  const loaded = await Promise.all(
    migrationFiles().map(async ({ name, file }) => {
      const migration = (await import(new URL(file, MIGRATIONS_FOLDER).href)) as Migration;
      return [name, migration] as const;
    }),
  );
  return Object.fromEntries(loaded);
}

const migrationProvider: MigrationProvider = { getMigrations: loadMigrations };

/**
 * Migrates an empty or older database up to `name` and no further (a restore of an older backup, and the tests
 * that write rows at each level), in one transaction like `migrate`.
 */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<MigrationResult> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateTo(name);
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`migrating to ${name} failed: ${message}`, { cause: error });
  }
  return {
    applied: results.filter((result) => result.status === 'Success').map((result) => result.migrationName),
  };
}

export async function migrate(db: Kysely<Database>, log?: Logger): Promise<MigrationResult> {
  const last = lastMigration();
  if ((await lastApplied(db)) === last) return { applied: [] };
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
        `the database has migration ${missing[1]}, newer than this program knows (${lastMigration()}); upgrade digest`,
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
