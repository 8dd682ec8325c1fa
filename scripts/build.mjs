// `npm run build` (also run by `npm install` through `prepare`): src/**/*.ts → dist/, plus the files modules read at
// run time (prompts), plus the prepared empty database new data folders start from (scripts/empty-db.mjs).
//
// ES modules, bundled with code splitting: each entry point keeps its path in dist/ (dist/cli/main.js, which
// bin/digest.js runs; what scripts/empty-db.mjs, the prepared-folder child and the config test import by path), and
// everything else lands in dist/chunks/, one chunk per set of entry points and dynamic imports that share it. So the
// CLI stays lazy: a command loads its own chunks, `digest --help` none of a command's. Zod, Kysely, Commander and
// PGlite's JavaScript are bundled in (their hundreds of modules would each cost the loader a file); PGlite gets its
// WebAssembly and file bundle from src/store/pglite-warm.ts, since it cannot find them from a chunk. Every other
// package stays in node_modules. Start-up needs no cache of our own: bin/digest.js turns on Node's compile cache.
// A module that finds a file by `import.meta.url` looks up one level and down into its folder (`../write/prompts/`,
// `../store/migrations/`): the same folder from src/<folder>/, from dist/cli/ and from dist/chunks/.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { makeEmptyDatabase } from './empty-db.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

/** Bundled rather than loaded from node_modules: their own hundreds of modules, and code run by every command. */
const BUNDLED_PACKAGES = ['zod', 'kysely', 'commander', '@electric-sql/pglite'];

const sources = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => relative(src, join(entry.parentPath, entry.name)));
const entries = sources.filter(
  (file) =>
    file === join('cli', 'main.ts') ||
    file === join('store', '_prepare-data-dir-child.ts') ||
    file === join('sources', '_feed-worker.ts') ||
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

/**
 * Zod without what this program never uses and every start would load: the locales but English (`z.locales`, ~400
 * kB) and `z.fromJSONSchema` (whose module builds its schemas when loaded).
 */
const zodTrimmed = {
  name: 'zod-trimmed',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/from-json-schema\.js$/ }, (args) =>
      args.importer.includes(join('node_modules', 'zod', ''))
        ? { path: 'from-json-schema', namespace: 'zod-trimmed' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-trimmed' }, () => ({
      contents:
        'export function fromJSONSchema() { throw new Error("z.fromJSONSchema is left out of this build (scripts/build.mjs)"); }',
    }));
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(join('node_modules', 'zod', ''))
        ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: entries.map((file) => join(src, file)),
  outdir: dist,
  outbase: src,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external: externalsBut(BUNDLED_PACKAGES),
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Commander is CommonJS: bundled into an ES module, its `require` of Node's own modules needs a real one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [zodTrimmed],
});
for (const asset of assets) cpSync(asset, join(dist, relative(src, asset)));
await makeEmptyDatabase(dist);
const chunks = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.js')).length;
process.stderr.write(
  `built ${sources.length} modules into ${entries.length} entry points and ${chunks} chunks, and ${assets.length} assets, in dist/\n`,
);

/** Every dependency but `bundled`, with its subpaths. */
function externalsBut(bundled) {
  return Object.keys(dependencies)
    .filter((name) => !bundled.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
}
