// PGlite's own memory floor, for `npm run bench` to print beside every peak RSS: a store is created, then a
// separate process opens it and runs `select 1`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probe } from './store.js';

export async function pgliteFloor(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-floor-'));
  try {
    probe('create', join(dir, 'data'));
    return probe('floor', join(dir, 'data')).peakRssMb;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
