// PGlite's start-up work that needs no data folder — reading its 9 MB WebAssembly and 6 MB file-system bundle, and
// compiling the WebAssembly — started by the CLI as soon as it knows the command opens a PGlite store, before it
// loads the command's modules. The files are read at once (~5 ms) and the compile runs on V8's background
// threads, overlapping the main thread's module loading and config: `PGlite.create` then gets the compiled module
// and the bundle (`pgliteWasmModule`, `fsBundle`) and goes straight to starting PostgreSQL.
// Every open gets both: PGlite is bundled into the CLI (scripts/build.mjs), where it cannot find its own files, so
// without a warm start (not started, or failed) takeWarmStart() reads and compiles them itself.
// A warm start nobody takes (the command failed first, or `digest serve` holds the folder and shares its database)
// costs a core for a tenth of a second and keeps the compiled module until the command ends.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { chooseWasmTiers } from './pglite-options.js';

type WarmStart = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>>;

let started: Promise<WarmStart | null> | undefined;
/** The compiled module outlives the first open (a module instantiates any number of times); the bundle does not. */
let compiled: WebAssembly.Module | undefined;

/** Starts reading and compiling PGlite's files, once per process. */
export function warmPglite(options: { optimizeWasm: boolean }): void {
  started ??= warm(options.optimizeWasm).catch(() => null);
}

/**
 * PGlite's compiled module (compiled once per process) and a new copy of its file-system bundle. The files are
 * read at once (~5 ms from the page cache): an asynchronous read goes on in 512 kB steps, each waiting for the main
 * thread, which is busy loading the command, so the files arrived only when PGlite already needed them.
 */
async function warm(optimizeWasm: boolean): Promise<WarmStart> {
  // The tier flag is read when a module is compiled: set before this compile as before PGlite's own.
  chooseWasmTiers(optimizeWasm);
  const folder = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const bundle = readFileSync(join(folder, 'pglite.data'));
  compiled ??= await WebAssembly.compile(readFileSync(join(folder, 'pglite.wasm')));
  return { pgliteWasmModule: compiled, fsBundle: new Blob([bundle]) };
}

/** PGlite's compiled module and file-system bundle for the next `PGlite.create`: what warmPglite() prepared, or read now. */
export async function takeWarmStart(options: { optimizeWasm: boolean }): Promise<WarmStart> {
  const warmed = started && (await started);
  // The bundle goes to one PGlite (it copies it); a later open in this process reads its own.
  started = undefined;
  return warmed ?? warm(options.optimizeWasm);
}
