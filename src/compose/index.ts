// compose/ — the one composition root: the real adapters (config, store, HTTP client, disk, clock) are wired here
// once, and every entry point (the CLI's commands, `digest serve`, `digest mcp`, the tests) gets its use cases from
// here. This public entry loads nothing heavy itself: the CLI imports it before it loads a command's modules (warmStore).
import { warmPglite } from '../store/pglite-warm.js';
import type { OpenDigest, OpenDigestOptions } from './open-digest.js';

export type { OpenDigest, OpenDigestOptions } from './open-digest.js';

/** Runs `fn` with an open digest and always closes the store (PGlite must be closed; the lock released). */
export async function withDigest<T>(
  options: OpenDigestOptions,
  fn: (digest: OpenDigest) => Promise<T>,
): Promise<T> {
  return (await import('./open-digest.js')).withDigest(options, fn);
}

/** `digest demo`: the bundled sample week built offline into the data folder. */
export async function runDemo(options: Parameters<typeof import('./demo.js').runDemo>[0]) {
  return (await import('./demo.js')).runDemo(options);
}

/** `digest restore`: the backup file checked whole (checksum, format, counts) before any store is opened. */
export async function checkBackup(file: string) {
  return (await import('../backup/index.js')).checkBackupFile(file);
}

/**
 * A command that will open the store says so first: without DATABASE_URL that is PGlite, whose files are read and
 * compiled on other threads while the command's modules load (store/pglite-warm.ts).
 */
export function warmStore(env: NodeJS.ProcessEnv): void {
  if (env.DATABASE_URL) return;
  warmPglite({ optimizeWasm: env.DIGEST_WASM_OPTIMIZE === '1' });
}
