// `npm run build` (also run by `npm install` through `prepare`): src/**/*.ts → dist/, plus the files modules read at
// run time (prompts), plus the prepared empty database new data folders start from (scripts/empty-db.mjs).
//
// Bundled with code splitting (issue 32): Node 20's ES module loader costs about a millisecond per module file, and a
// build loaded ~290 of them (188 of ours, ~95 of zod's). Each entry point below keeps its path in dist/; everything
// else lands in dist/chunks/, one chunk per set of entry points and dynamic imports that share it, so the CLI's
// dynamic imports stay lazy (a command loads its own chunks; `--help` loads none of a command's) and a build loads
// ~80 files. Zod and Kysely are bundled in (their own ~350 modules); every other package stays in node_modules.
// A module that finds a file by `import.meta.url` looks from its room's folder in src/ and from dist/chunks/ alike,
// so it names it by a path up one level and down into the room (`../write/prompts/`, `../store/migrations/`).
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { makeEmptyDatabase } from './empty-db.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

/** Bundled into the chunks rather than loaded from node_modules, module by module. */
const BUNDLED_PACKAGES = ['zod', 'kysely'];

const sources = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => relative(src, join(entry.parentPath, entry.name)));
// What is run or imported by its path: bin/digest.js runs cli/main, which loads each command's module by name (the
// test of the command table sees which); the prepared-folder child is a script; scripts/empty-db.mjs migrates with store/database, store/migrate and the migrations, whose file names also tell
// migrate.ts the last one; the config test loads config/load-config in plain Node.
const entries = sources.filter(
  (file) =>
    file === join('cli', 'main.ts') ||
    /^cli\/commands\/[a-z-]+-command\.ts$/.test(file) ||
    file === join('store', '_prepare-data-dir-child.ts') ||
    file === join('store', 'database.ts') ||
    file === join('store', 'migrate.ts') ||
    /^store\/migrations\/(index|\d{3}-[a-z0-9-]+)\.ts$/.test(file) ||
    file === join('config', 'load-config.ts'),
);
const assets = readdirSync(src, { recursive: true, withFileTypes: true })
  // The folders' README.md files are documentation for readers of the source, not assets the program reads.
  .filter((entry) => entry.isFile() && /\.(md|json|txt|css)$/.test(entry.name) && entry.name !== 'README.md')
  .map((entry) => join(entry.parentPath, entry.name));

const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED_PACKAGES.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: entries.map((file) => join(src, file)),
  outdir: dist,
  outbase: src,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const asset of assets) cpSync(asset, join(dist, relative(src, asset)));
await makeEmptyDatabase(dist);
const chunks = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.js')).length;
process.stderr.write(
  `built ${sources.length} modules into ${entries.length} entry points and ${chunks} chunks, and ${assets.length} assets, in dist/\n`,
);
