// The empty database shipped with the package (dist/empty-db.tar.gz, plus dist/empty-db.json naming the PGlite that
// made it): initdb and every migration, run once at build time so that no run of `digest` on a new data folder pays
// initdb's ~800 MB (src/store/prepare-data-dir.ts unpacks it). Made from the compiled migrations in dist/, and
// kept in node_modules/.cache keyed by the PGlite version and the migrations' sources, so a rebuild with the same
// migrations takes no time. initdb runs in a child process, so this build process stays small.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Never fails the build: without the copy, new data folders fall back to initdb at run time (with a warning). */
export async function makeEmptyDatabase(dist) {
  try {
    await makeIt(dist);
  } catch (error) {
    process.stderr.write(
      `warning: no prepared empty database (${error instanceof Error ? error.message : error}); ` +
        'new data folders will run initdb instead (slower, ~800 MB)\n',
    );
  }
}

async function makeIt(dist) {
  const pglite = pgliteVersion();
  const key = `${pglite}-${migrationsDigest(join(root, 'src', 'store', 'migrations'))}`;
  const cacheDir = join(root, 'node_modules', '.cache', 'digest-empty-db');
  const cached = join(cacheDir, `empty-db-${key}.tar.gz`);
  if (!existsSync(cached)) {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}.partial`;
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), dist, partial], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (child.status !== 0) throw new Error(`could not make the empty database (status ${child.status})`);
    // Renamed when whole, so a parallel build never copies half a file.
    renameSync(partial, cached);
  }
  copyFileSync(cached, join(dist, 'empty-db.tar.gz'));
  // The migrations it holds: a run whose code lacks one (an older checkout) must not start from it.
  const { migrationNames } = await import(pathToFileURL(join(dist, 'store', 'migrate.js')).href);
  const manifest = { pglite, key, migrations: migrationNames() };
  writeFileSync(join(dist, 'empty-db.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

function pgliteVersion() {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(readFileSync(join(entry, '..', '..', 'package.json'), 'utf8')).version;
}

function migrationsDigest(directory) {
  const hash = createHash('sha256');
  for (const name of readdirSync(directory).sort())
    hash.update(name).update(readFileSync(join(directory, name)));
  return hash.digest('hex').slice(0, 16);
}

/** In the child: initdb in memory, the compiled migrations, then the folder as a gzipped tar. */
async function dumpEmptyDatabase(dist, file) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteDatabase } = await import(pathToFileURL(join(dist, 'store', 'database.js')).href);
  const { migrate } = await import(pathToFileURL(join(dist, 'store', 'migrate.js')).href);
  const pglite = await PGlite.create({ dataDir: 'memory://' });
  const db = pgliteDatabase(pglite, { ownsDatabase: false });
  await migrate(db);
  await db.destroy();
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dist, file] = process.argv.slice(2);
  await dumpEmptyDatabase(dist, file);
}
