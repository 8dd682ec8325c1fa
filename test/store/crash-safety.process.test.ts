// A process killed (SIGKILL) in the middle of an ingest leaves only whole batches in its PGlite folder; the folder
// opens again and a rerun completes with every item stored once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { openStore } from '../../src/store/open-store.js';
import { seedPgliteDataDir } from '../support/database.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'crash-child.ts');
const BATCHES = 8;
const SIZE = 1000;
const KILL_AT = 3;

describe('crash safety on PGlite', () => {
  let dir = '';
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('keeps whole batches only after SIGKILL, reopens, and a rerun stores each item once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'digest-crash-'));
    const dataDir = join(dir, 'data');
    await seedPgliteDataDir(dataDir);

    const killed = startChild(dataDir);
    await untilLine(killed, `start ${KILL_AT}`);
    killed.kill('SIGKILL');
    expect((await exited(killed)).signal).toBe('SIGKILL');

    const perBatch = await batchCounts(dataDir);
    const whole = perBatch.indexOf(0);
    expect(whole).toBeGreaterThanOrEqual(KILL_AT);
    expect(perBatch).toEqual(perBatch.map((_count, batch) => (batch < whole ? SIZE : 0)));

    const rerun = startChild(dataDir);
    const lines = collectLines(rerun);
    expect(await exited(rerun)).toEqual({ code: 0, signal: null });
    expect(lines.at(-1)).toBe('finished');

    const store = await openStore({ dataDir });
    try {
      const items = await store.items.candidates(editionWindow('2026-05-04'));
      expect(items).toHaveLength(BATCHES * SIZE);
      expect(new Set(items.map((item) => item.key)).size).toBe(BATCHES * SIZE);
      expect(new Set(items.map((item) => item.canonicalUrl)).size).toBe(BATCHES * SIZE);
      expect(items.every((item) => item.sources.length === 1)).toBe(true);
      expect(Object.keys(await store.sourceState.get('rss-crash'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 240_000);
});

function startChild(dataDir: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(BATCHES), String(SIZE)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function untilLine(child: ChildProcess, wanted: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => line === wanted && resolve());
    child.once('exit', () => reject(new Error(`the child exited before printing "${wanted}"`)));
  });
}

function collectLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  return lines;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** How many of each batch's own items the folder holds. */
async function batchCounts(dataDir: string): Promise<number[]> {
  const store = await openStore({ dataDir });
  try {
    const counts = new Array<number>(BATCHES).fill(0);
    for (const item of await store.items.candidates(editionWindow('2026-05-04'))) {
      const n = Number(/\/posts\/(\d+)/.exec(item.url)?.[1]);
      counts[Math.floor(n / SIZE)]! += 1;
    }
    return counts;
  } finally {
    await store.close();
  }
}
