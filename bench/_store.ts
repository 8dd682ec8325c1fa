// Benchmarks measure the weekly steady state: a store that already exists on disk (./data after the first run).
// Creating one (PGlite's initdb, ~1 GB peak once) happens in a separate process, so it is not in the figures.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/types.js';

export async function withPreparedStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-'));
  try {
    const script = `const { openStore } = await import(${JSON.stringify(new URL('../src/store/open-store.ts', import.meta.url).href)}); const s = await openStore({ dataDir: process.argv[1] }); await s.close();`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, join(dir, 'data')],
      {
        encoding: 'utf8',
      },
    );
    if (child.status !== 0) throw new Error(`could not prepare the store: ${child.stderr}`);
    const store = await openStore({ dataDir: join(dir, 'data') });
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
