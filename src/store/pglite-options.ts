// How this program starts PGlite. shared_buffers: PostgreSQL's default 128 MB page cache costs ~160 MB of RSS in
// the WebAssembly heap (measured: reopening a store peaks at 314 MB with it, 153 MB with 16 MB); a weekly digest
// touches a few MB of pages. Passed as a start parameter: PGlite's `postgresqlconf` option would rewrite the
// folder's whole postgresql.conf on every open.
//
// WebAssembly tiers: by default V8 compiles PGlite's 9 MB module twice, Liftoff (baseline) at once and TurboFan in
// the background. The optimized copy costs ~70 MB of RSS and a core for the first seconds, and a weekly build or
// an idle `digest serve` never runs long enough to gain from it. So PGlite runs on baseline code only. The flags are
// read when a module is compiled, so they are set before PGlite loads: `--liftoff-only`, which newer V8 reads only
// from the command line (Node 24 and 26 ignore it set at run time), and tier-up turned off, dynamic and eager both,
// which they do honour. DIGEST_WASM_OPTIMIZE=1 (read by the composition root, handed in as `optimizeWasm`) keeps V8's
// default (a store under sustained heavy load). The one-shot initdb child always runs on baseline code.
import { setFlagsFromString } from 'node:v8';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

export const SHARED_BUFFERS = '16MB';

/** V8's flags for baseline WebAssembly only, as `setFlagsFromString` takes them on Node 20 to 26. */
export const BASELINE_WASM_FLAGS = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering';

let tiersChosen = false;

/**
 * Before PGlite's WebAssembly is compiled (the first `PGlite.create` in this process, or warmPglite() before it);
 * pgliteOptions() calls it.
 */
export function chooseWasmTiers(optimize: boolean): void {
  if (tiersChosen) return;
  tiersChosen = true;
  if (!optimize) setFlagsFromString(BASELINE_WASM_FLAGS);
}

export function pgliteOptions(
  pglite: typeof PGlite,
  options: { optimizeWasm?: boolean } = {},
): Pick<PGliteOptions, 'startParams'> {
  chooseWasmTiers(options.optimizeWasm ?? false);
  return { startParams: [...pglite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] };
}
