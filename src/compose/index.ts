// compose/ — the one composition root: the real adapters (config, store, HTTP client, disk, clock) are wired here
// once, and every entry point (the CLI's commands, `digest serve`, `digest mcp`, the tests) gets its use cases from
// here.
export { type OpenDigest, type OpenDigestOptions, withDigest } from './open-digest.js';

/** `digest demo`: the bundled sample week built offline into the data folder. */
export async function runDemo(options: Parameters<typeof import('./demo.js').runDemo>[0]) {
  return (await import('./demo.js')).runDemo(options);
}
