// Benchmarks measure the weekly steady state: a store that already exists on disk. openStore makes a new one in a
// short-lived child process (PGlite's initdb, ~800 MB peak), so creating it is not in the figures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/types.js';

export async function withPreparedStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-'));
  try {
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
