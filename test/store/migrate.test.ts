// Migrations on open: a current store is checked with one query; a store behind gets the missing ones applied.
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteDatabase } from '../../src/store/database.js';
import { lastMigration, loadMigrations, migrate, migrationNames } from '../../src/store/migrate.js';
import { freshPglite } from '../support/database.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migratedDatabase() {
  const pglite = await freshPglite();
  const db = pgliteDatabase(pglite, { ownsDatabase: false });
  cleanups.push(() => pglite.close());
  cleanups.push(() => db.destroy());
  return { pglite, db };
}

const lockTable = `SELECT to_regclass('kysely_migration_lock') IS NOT NULL AS present`;

describe('migrate', () => {
  it('finds every migration in the files of migrations/, in order, and loads each one', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../src/store/migrations/', import.meta.url))
      .filter((name) => /^\d{3}-/.test(name))
      .map((name) => name.replace(/\.ts$/, ''));
    // Every migration file is listed, in order, and the last of them is what the one-query check compares.
    expect(files.sort()).toEqual(migrationNames());
    expect(lastMigration()).toBe(migrationNames().at(-1));
    expect(migrationNames().length).toBeGreaterThanOrEqual(14);
    const loaded = await loadMigrations();
    expect(Object.keys(loaded)).toEqual(migrationNames());
    for (const migration of Object.values(loaded)) expect(typeof migration.up).toBe('function');
  });

  it('leaves a current store to its one query: the Migrator, which makes its lock table, does not run', async () => {
    const { pglite, db } = await migratedDatabase();
    await pglite.exec('DROP TABLE kysely_migration_lock');
    expect(await migrate(db)).toEqual({ applied: [] });
    const { rows } = await pglite.query<{ present: boolean }>(lockTable);
    expect(rows[0]?.present).toBe(false);
  });

  it('applies what a store behind this program misses, through the Migrator', async () => {
    const { pglite, db } = await migratedDatabase();
    // An empty database, as before its first migration: every table the migrations made is gone.
    const { rows: tables } = await pglite.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables
       WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
    );
    await pglite.exec(`DROP TABLE ${tables.map((table) => table.name).join(', ')} CASCADE`);
    await pglite.exec('DELETE FROM kysely_migration; DROP TABLE kysely_migration_lock');
    expect(await migrate(db)).toEqual({ applied: migrationNames() });
    const { rows } = await pglite.query<{ present: boolean }>(lockTable);
    expect(rows[0]?.present).toBe(true);
  });
});
