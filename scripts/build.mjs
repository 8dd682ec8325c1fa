// `npm run build` (also run by `npm install` through `prepare`): src/**/*.ts → dist/**/*.js, one file per module
// (no bundle, so the CLI's dynamic imports stay lazy), plus the files modules read at run time (prompts), plus the
// prepared empty database new data folders start from (scripts/empty-db.mjs).
// Kysely ships ~260 ES modules that every command opening the store loads one by one (~130 ms of CPU, issue 32):
// it is bundled once into dist/_vendor/kysely.js and dist/ imports that file instead of the package.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { makeEmptyDatabase } from './empty-db.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

const entries = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => join(entry.parentPath, entry.name));
const assets = readdirSync(src, { recursive: true, withFileTypes: true })
  // The folders' README.md files are documentation for readers of the source, not assets the program reads.
  .filter((entry) => entry.isFile() && /\.(md|json|txt|css)$/.test(entry.name) && entry.name !== 'README.md')
  .map((entry) => join(entry.parentPath, entry.name));

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: dist,
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const asset of assets) cpSync(asset, join(dist, relative(src, asset)));
await vendor('kysely');
await makeEmptyDatabase(dist);
process.stderr.write(`built ${entries.length} modules and ${assets.length} assets into dist/\n`);

/** Bundles `name` into dist/_vendor/<name>.js and points dist's imports of the package at it. */
async function vendor(name) {
  const bundle = join(dist, '_vendor', `${name}.js`);
  await build({
    stdin: { contents: `export * from '${name}';`, resolveDir: root, loader: 'js' },
    bundle: true,
    outfile: bundle,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const from = `from "${name}";`;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = join(entry.parentPath, entry.name);
    const code = readFileSync(file, 'utf8');
    if (!code.includes(from)) continue;
    const path = relative(entry.parentPath, bundle);
    writeFileSync(file, code.replaceAll(from, `from "${path.startsWith('.') ? path : `./${path}`}";`));
  }
}
