// Child process for the killed-migration test: opens a PGlite folder and migrates it with this program's
// migrations plus one more that never ends, saying on stdout when it is inside it (after every real migration of
// the run has been applied in the same transaction). The test kills it there with SIGKILL.
// Usage: node --import tsx test/store/migrate-kill-child.ts DATA_DIR
import { PGlite } from '@electric-sql/pglite';
import { type Migration, Migrator, sql } from 'kysely';
import { pgliteDatabase } from '../../src/store/database.js';
import { loadMigrations } from '../../src/store/migrate.js';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: migrate-kill-child.ts DATA_DIR');
const pglite = await PGlite.create({ dataDir });
const db = pgliteDatabase(pglite);
const hang: Migration = {
  async up(tx) {
    await sql`CREATE TABLE half_done (id integer)`.execute(tx);
    process.stdout.write('inside\n');
    await new Promise(() => {});
  },
};
const migrator = new Migrator({
  db,
  provider: { getMigrations: async () => ({ ...(await loadMigrations()), '999-never-ends': hang }) },
});
await migrator.migrateToLatest();
