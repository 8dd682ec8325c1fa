// Child process of prepareDataDir(): initdb and migrations for a new PGlite folder, then exit. initdb peaks near
// 800 MB of RSS in PGlite; in a short-lived child that memory is returned the moment it is done.
// Usage: node [--import tsx] _prepare-data-dir-child.(ts|js) TARGET_DIR
import { PGlite } from '@electric-sql/pglite';
import { tightenPermissions } from './data-dir-permissions.js';
import { pgliteDatabase } from './database.js';
import { migrate } from './migrate.js';
import { pgliteOptions } from './pglite-options.js';

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: _prepare-data-dir-child TARGET_DIR');
process.umask(0o077);
const pglite = await PGlite.create({ dataDir: target, ...pgliteOptions(PGlite) });
const db = pgliteDatabase(pglite);
await migrate(db);
await db.destroy();
await tightenPermissions(target);
