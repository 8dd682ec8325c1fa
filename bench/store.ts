// Store memory: PGlite's own floor (open an existing store + `select 1`), opening the store, listCandidates on
// the sample week (118 real papers), and creating a new store (from the build's prepared empty database, no initdb; whole tree: bench first-run).
// Each measurement runs in its own process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/open-store.js';
import { seedWeekItems } from './_seed-week.js';

const PROBE = join(dirname(fileURLToPath(import.meta.url)), '_store-probe.mjs');

export interface ProbeResult {
  peakRssMb: number;
  seconds: number;
  rows: number;
}

export function probe(mode: 'floor' | 'open' | 'list' | 'create', dataDir: string): ProbeResult {
  const child = spawnSync(process.execPath, [PROBE, mode, dataDir], { encoding: 'utf8' });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{'))
    throw new Error(`store probe ${mode} failed: ${child.stderr}`);
  return JSON.parse(line) as ProbeResult;
}

export async function benchStore(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-bench-store-'));
  try {
    const created = probe('create', join(dir, 'data'));
    const store = await openStore({ dataDir: join(dir, 'data') });
    try {
      await store.items.upsert(await seedWeekItems());
    } finally {
      await store.close();
    }
    const floor = probe('floor', join(dir, 'data'));
    const open = probe('open', join(dir, 'data'));
    const list = probe('list', join(dir, 'data'));
    if (list.rows < 100) throw new Error(`expected the sample week's papers, listed ${list.rows}`);
    return {
      'PGlite floor MB (open + select 1)': floor.peakRssMb,
      'open store peak RSS MB': open.peakRssMb,
      'listCandidates peak RSS MB (sample week)': list.peakRssMb,
      'open store over the floor MB': open.peakRssMb - floor.peakRssMb,
      'listCandidates over the floor MB': list.peakRssMb - floor.peakRssMb,
      'candidates listed': list.rows,
      'create store peak RSS MB (from the prepared copy)': created.peakRssMb,
      'create store wall s': Math.round(created.seconds * 100) / 100,
      'open store wall s': Math.round(open.seconds * 100) / 100,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
