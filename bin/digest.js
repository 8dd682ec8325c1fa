#!/usr/bin/env node
// Runs the compiled CLI, dist/cli/main.cjs (built by `npm install` through `prepare`, or `npm run build`), with V8's
// code cache: the first run of a command saves the code it compiled, and later runs start from it instead of
// compiling 3 MB of source again (issue 32; Node 20 has no compile cache of its own for ES modules).
//
// The cache lives in node_modules/.cache/digest-compile/ (or the folder DIGEST_COMPILE_CACHE names), one file per
// command, keyed by the build (dist/cli/main.cjs.id or help.cjs.id, a hash of the file), Node's version and the
// flags it runs with; a save removes the files of other builds. V8 checks it too and rejects a cache that does not fit; a rejected
// or missing one is written at exit. It is never needed: a folder that cannot be written, or DIGEST_COMPILE_CACHE=0,
// only means compiling at every start (~50 ms more).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The command named (the first word that is not an option), if any. */
const word = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
// Without a command (`digest`, `digest --help`, `--version`) the CLI without the commands' modules does the same
// in a twentieth of the code (scripts/build.mjs); every command runs the whole CLI.
const bundle = join(root, 'dist', 'cli', word === undefined ? 'help.cjs' : 'main.cjs');
const CACHE_DIR = process.env.DIGEST_COMPILE_CACHE || join(root, 'node_modules', '.cache', 'digest-compile');
/** Files kept at most (one per command and setting); a further command then runs without saving its own. */
const MAX_CACHE_FILES = 64;

let source;
try {
  source = readFileSync(bundle, 'utf8');
} catch {
  process.stderr.write(
    'digest: dist/ is missing. Run "npm install" (or "npm run build") in the project folder.\n',
  );
  process.exit(2);
}

// V8 flags, set before the script is compiled (V8 keys its code cache by its flags): PGlite's WebAssembly runs on
// V8's baseline tier unless DIGEST_WASM_OPTIMIZE=1 (src/store/pglite-options.ts sets the same flag again before it
// compiles). (`--no-regexp-tier-up` saved the extractive writer ~10 ms, but two full test runs with it saw a
// `digest send` end in SIGSEGV: taken back.)
const optimizeWasm = process.env.DIGEST_WASM_OPTIMIZE === '1';
const FLAGS = optimizeWasm ? [] : ['--liftoff-only'];
for (const flag of FLAGS) setFlagsFromString(flag);

const cacheFile = cachePath();
const script = compile(cacheFile);

const cli = { exports: {} };
script
  .runInThisContext()
  .call(
    cli.exports,
    cli.exports,
    createRequire(bundle),
    cli,
    bundle,
    dirname(bundle),
    (specifier) => import(specifier),
  );
await cli.exports.main();

/** The bundle as a function of its module's variables, from the cache when there is one that fits. */
function compile(file) {
  let cachedData;
  try {
    if (file) cachedData = readFileSync(file);
  } catch {
    // Not saved yet: this run saves it.
  }
  const compiled = new Script(
    `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`,
    { filename: bundle, ...(cachedData ? { cachedData } : {}) },
  );
  // Saved at exit when missing or rejected; the buffer itself is not kept (it is ~2 MB).
  if (file && (!cachedData || compiled.cachedDataRejected)) process.once('exit', () => saveCache(file));
  return compiled;
}

/** Where this command's cache is, or null when caching is off or the build has no id. */
function cachePath() {
  if (process.env.DIGEST_COMPILE_CACHE === '0') return null;
  let id;
  try {
    id = readFileSync(`${bundle}.id`, 'utf8').trim();
  } catch {
    return null;
  }
  if (!/^[0-9a-f]{8,64}$/.test(id)) return null;
  const command = word && /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'none';
  const settings = hash(
    [
      process.version,
      process.arch,
      FLAGS.join(' '),
      process.execArgv.join(' '),
      process.env.NODE_OPTIONS ?? '',
    ].join('\n'),
  );
  return join(CACHE_DIR, `${id}-${command}-${settings}.bin`);
}

/** FNV-1a, 32 bits, in hex: names the settings in a file name (node:crypto would cost every start ~4 ms). */
function hash(text) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return (value >>> 0).toString(16).padStart(8, '0');
}

/** Writes the code compiled so far (at exit: what this command used), replacing the caches of other builds. */
function saveCache(file) {
  try {
    // This build's ids: main.cjs's and help.cjs's.
    const current = new Set(
      ['main.cjs.id', 'help.cjs.id'].map((name) => readFileSync(join(dirname(bundle), name), 'utf8').trim()),
    );
    mkdirSync(CACHE_DIR, { recursive: true });
    // Only this loader's files (`<build id>-<command>-<settings>.bin`): the folder may be one the user named.
    const caches = readdirSync(CACHE_DIR).filter((name) =>
      /^[0-9a-f]{8,64}-[a-z-]+-[0-9a-f]{8}\.bin$/.test(name),
    );
    const stale = (name) => !current.has(name.split('-')[0]);
    for (const name of caches) if (stale(name)) rmSync(join(CACHE_DIR, name), { force: true });
    if (caches.filter((name) => !stale(name)).length >= MAX_CACHE_FILES) return;
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
  } catch {
    // A cache is an optimisation: a folder that cannot be written only means compiling next time too.
  }
}
