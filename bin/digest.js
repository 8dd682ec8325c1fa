#!/usr/bin/env node
// Runs the compiled CLI, dist/cli/main.js (ES modules built by `npm install` through `prepare`, or `npm run build`).
//
// Start-up uses Node's own compile cache where the runtime has one (module.enableCompileCache, Node ≥ 22.1): a
// command's second run starts from the code V8 compiled in its first. Node checks each entry against the source it
// is for and a checksum of its own, so a damaged file costs a compile, never a crash. The folder is this user's
// alone (created 0700; one owned by someone else, or that others may write to, is not used), since a cache planted
// by another user could carry code of theirs. It is node_modules/.cache/digest-compile-cache/ unless
// DIGEST_COMPILE_CACHE names another (or is 0: no cache). On Node 20 the modules simply load.
import { lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'cli', 'main.js');

// PGlite's WebAssembly runs on V8's baseline tier unless DIGEST_WASM_OPTIMIZE=1 (src/store/pglite-options.ts sets the
// same flags again before it compiles: BASELINE_WASM_FLAGS, why three); set first, so every run compiles, and caches,
// under the same flags.
if (process.env.DIGEST_WASM_OPTIMIZE !== '1')
  setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering');
// Stack traces name the TypeScript source (dist/ has its source maps), when asked for.
if (process.env.DIGEST_DEBUG) process.setSourceMapsEnabled(true);

const cacheFolder = ownCacheFolder();
if (cacheFolder) module.enableCompileCache(cacheFolder);

let cli;
try {
  cli = await import(pathToFileURL(main).href);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(main)) throw error;
  process.stderr.write(
    'digest: dist/ is missing. Run "npm install" (or "npm run build") in the project folder.\n',
  );
  process.exit(2);
}
await cli.main();

/** The compile cache's folder when the runtime has one and the folder is this user's own, else null (no cache). */
function ownCacheFolder() {
  const setting = process.env.DIGEST_COMPILE_CACHE;
  if (setting === '0' || typeof module.enableCompileCache !== 'function') return null;
  const folder = setting || join(root, 'node_modules', '.cache', 'digest-compile-cache');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stats = lstatSync(folder);
    const owner = typeof process.getuid === 'function' ? process.getuid() : stats.uid;
    // Not a link, ours, and no one else may read or write it.
    return stats.isDirectory() && stats.uid === owner && (stats.mode & 0o077) === 0 ? folder : null;
  } catch {
    // A folder that cannot be made (a read-only install) only means compiling at every start.
    return null;
  }
}
