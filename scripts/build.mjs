// `npm run build` (also run by `npm install` through `prepare`): src/**/*.ts → dist/, plus the files modules read at
// run time (prompts), plus the prepared empty database new data folders start from (scripts/empty-db.mjs).
//
// Two outputs (the CLI's start is most of a small command's time):
// - **The CLI, one CommonJS file**, dist/cli/main.cjs, which bin/digest.js compiles with V8's code cache (a command
//   that ran once starts from its compiled code, not from 2.7 MB of source). Node 20 offers a code cache only for a
//   script (vm.Script), not for ES modules. The commands stay lazy inside it: each command's module is wrapped and
//   runs only when its command does, and packages load when first used. Zod, Kysely, Commander and PGlite's
//   JavaScript are bundled in (so their compiled code is cached too; PGlite then gets its WebAssembly and file
//   bundle from src/store/pglite-warm.ts, since it cannot find them from the bundle), and so is any package the bundle would `require` that Node 20 cannot
//   (ES modules only: p-queue); every other package stays in node_modules.
//   A dynamic `import()` inside a cached script fails on Node 20 ("A dynamic import callback was not specified"):
//   the bundle calls `__import()` instead, which bin/digest.js hands in (its own `import()`, resolving packages
//   from the project folder).
// - **ES modules, code-split, for what is imported or run by its path**: scripts/empty-db.mjs migrates with
//   store/database, store/migrate and the migrations, whose file names also tell migrate.ts the last one; the
//   prepared-folder child is a script; the config test loads config/load-config in plain Node. Each keeps its path
//   in dist/; what they share lands in dist/chunks/.
// A module that finds a file by `import.meta.url` looks up one level and down into its capability (`../write/prompts/`,
// `../store/migrations/`): the same folder from src/<capability>/, from dist/cli/main.cjs and from dist/chunks/.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { makeEmptyDatabase } from './empty-db.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

/** Bundled rather than loaded from node_modules: their own hundreds of modules, and code run by every command. */
const BUNDLED_PACKAGES = ['zod', 'kysely', 'commander', '@electric-sql/pglite'];
/** dist/cli/main.cjs: the CLI. */
const CLI_BUNDLE = join(dist, 'cli', 'main.cjs');
/** dist/cli/help.cjs: the CLI without the commands' modules, for a run that names no command. */
const HELP_BUNDLE = join(dist, 'cli', 'help.cjs');

const sources = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => relative(src, join(entry.parentPath, entry.name)));
const entries = sources.filter(
  (file) =>
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
const require = createRequire(join(root, 'package.json'));

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
  external: externalsBut(['zod', 'kysely']),
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [zodTrimmed],
});
const imports = await buildCli();
for (const asset of assets) cpSync(asset, join(dist, relative(src, asset)));
await makeEmptyDatabase(dist);
const chunks = readdirSync(join(dist, 'chunks')).filter((name) => name.endsWith('.js')).length;
process.stderr.write(
  `built ${sources.length} modules into dist/cli/main.cjs (${imports} dynamic imports handed to bin/digest.js), ` +
    `${entries.length} module entry points and ${chunks} chunks, and ${assets.length} assets, in dist/\n`,
);

/** Every dependency but `bundled`, with its subpaths. */
function externalsBut(bundled) {
  return Object.keys(dependencies)
    .filter((name) => !bundled.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
}

/**
 * dist/cli/main.cjs, and dist/cli/help.cjs (the same program without any command's module, for `digest`,
 * `digest --help` and `--version`, which bin/digest.js runs when no command is named), each with its build id
 * (`.id`, the key of bin/digest.js's code cache). Returns the dynamic imports handed to bin/digest.js.
 */
async function buildCli() {
  let bundled = BUNDLED_PACKAGES;
  const required = await bundleCli(CLI_BUNDLE, bundled);
  // A package the bundle `require`s that Node 20 cannot require (ES modules only): bundled in, once more.
  const importOnly = required.filter(onlyImportable);
  if (importOnly.length) {
    bundled = [...bundled, ...importOnly];
    await bundleCli(CLI_BUNDLE, bundled);
  }
  await bundleCli(HELP_BUNDLE, bundled, [commandsLeftOut()]);
  finishBundle(HELP_BUNDLE);
  return finishBundle(CLI_BUNDLE);
}

/**
 * The commands' modules and the composition root, not bundled into help.cjs: `digest --help` lists the commands
 * from the table alone. (Imported there, they would fail: bin/digest.js runs help.cjs only when no command is named.)
 */
function commandsLeftOut() {
  return {
    name: 'commands-left-out',
    setup(builder) {
      builder.onResolve({ filter: /^\.\/[a-z-]+-command\.js$/ }, (args) =>
        args.importer.endsWith(join('cli', 'commands', 'index.ts'))
          ? { path: args.path, external: true }
          : undefined,
      );
      // What a command's run loads first (the store's warm start), never reached without a command.
      builder.onResolve({ filter: /^\.\.\/compose\/index\.js$/ }, (args) =>
        args.importer.endsWith(join('cli', 'main.ts')) ? { path: args.path, external: true } : undefined,
      );
    },
  };
}

/** Dynamic import() → `__import(` (see the top), and the build id; returns how many were handed over. */
function finishBundle(file) {
  const [banner, body] = splitBanner(readFileSync(file, 'utf8'));
  // Every dynamic import() of the code (a package, a config file), not a word in a string or comment: esbuild
  // prints them as `import(` followed by the specifier expression.
  let count = 0;
  const code = body.replace(/(?<![\w$.])import\((?=\s*["'`(\w])/g, () => {
    count++;
    return '__import(';
  });
  const source = banner + code;
  writeFileSync(file, source);
  writeFileSync(`${file}.id`, `${createHash('sha256').update(source).digest('hex').slice(0, 16)}\n`);
  return count;
}

/** Bundles the CLI into `outfile` with `bundled` packages in; returns the packages it `require`s from node_modules. */
async function bundleCli(outfile, bundled, plugins = []) {
  await build({
    entryPoints: [join(src, 'cli', 'main.ts')],
    outfile,
    bundle: true,
    external: externalsBut(bundled),
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    // Strict, as the ES modules it is made of. The file's own URL, for what modules find by `import.meta.url`;
    // `__import` is bin/digest.js's import(), or Node's own when the file is loaded by a plain `require`.
    banner: {
      js:
        '"use strict";\n' +
        'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;\n' +
        'var __import = typeof __import === "function" ? __import : (specifier) => import(specifier);',
    },
    define: { 'import.meta.url': '__importMetaUrl' },
    plugins: [zodTrimmed, ...plugins],
  });
  const text = readFileSync(outfile, 'utf8');
  const specifiers = [...text.matchAll(/\brequire\("([^".][^"]*)"\)/g)].map((match) => match[1]);
  return [...new Set(specifiers.filter((specifier) => !specifier.startsWith('node:')))];
}

/** The banner esbuild put first (its two lines, which keep their own import()), and the rest. */
function splitBanner(text) {
  const end = text.indexOf('\n', text.indexOf('var __import =')) + 1;
  return [text.slice(0, end), text.slice(end)];
}

/** A module `require` cannot load on Node 20: an ES module (or a package that offers only `import`). */
function onlyImportable(specifier) {
  try {
    const file = require.resolve(specifier);
    if (file.endsWith('.cjs')) return false;
    if (file.endsWith('.mjs')) return true;
    let folder = dirname(file);
    while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
    return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).type === 'module';
  } catch (error) {
    // Exports with `import` only; a package that is not installed at all (an optional one) is left to fail where used.
    return error?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}
