// PGlite's start-up work that needs no data folder — reading its 9 MB WebAssembly and 6 MB file-system bundle, and
// compiling the WebAssembly — started by the CLI as soon as it knows the command opens a PGlite store, before it
// loads the command's modules (issue 32). The compile runs on V8's background threads and the reads on libuv's, so
// they overlap the main thread's module loading and config instead of following it: `PGlite.create` then gets the
// compiled module and the bundle (`pgliteWasmModule`, `fsBundle`) and goes straight to starting PostgreSQL.
// A warm start nobody takes (the command failed first, or `digest serve` holds the folder and shares its database)
// costs a core for a tenth of a second and keeps the compiled module until the command ends; one that fails is
// ignored (PGlite then reads and compiles as usual, and reports what is wrong).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { chooseWasmTiers } from './pglite-options.js';

type WarmStart = Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>;

let started: Promise<WarmStart | null> | undefined;
/** The compiled module outlives the first open (a module instantiates any number of times); the bundle does not. */
let compiled: WebAssembly.Module | undefined;

/** Starts reading and compiling PGlite's files, once per process. */
export function warmPglite(options: { optimizeWasm: boolean }): void {
  started ??= warm(options.optimizeWasm).catch(() => null);
}

async function warm(optimizeWasm: boolean): Promise<WarmStart> {
  // The tier flag is read when a module is compiled: set before this compile as before PGlite's own.
  chooseWasmTiers(optimizeWasm);
  const folder = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  // Read at once (~5 ms from the page cache): an asynchronous read goes on in 512 kB steps, each waiting for the
  // main thread, which is busy loading the command, so the files arrived only when PGlite already needed them.
  const wasm = readFileSync(join(folder, 'pglite.wasm'));
  const bundle = readFileSync(join(folder, 'pglite.data'));
  compiled = await WebAssembly.compile(wasm);
  return { pgliteWasmModule: compiled, fsBundle: new Blob([bundle]) };
}

/** What warmPglite() prepared, for the next `PGlite.create`: nothing when it was not started or failed. */
export async function takeWarmStart(): Promise<WarmStart> {
  const warmed = started && (await started);
  // The bundle goes to one PGlite (it copies it); a later open in this process reads its own.
  started = undefined;
  if (warmed) return warmed;
  return compiled ? { pgliteWasmModule: compiled } : {};
}
