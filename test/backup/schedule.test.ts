// Scheduled backups: a slot is backed up once (a second run of it, here or on another instance, does nothing), old
// files of the backup's name are pruned to `keep` and nothing else in the folder is touched, and a failure is logged
// without moving the time of the last success.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastBackupSuccess, runBackupSlot } from '../../src/backup/index.js';
import { useTestStore } from '../support/database.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-backups-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const fixedClock = (at: Date) => ({ now: () => at });

function recordingLog() {
  const warnings: string[] = [];
  return {
    warnings,
    log: { info() {}, debug() {}, error() {}, warn: (line: string) => warnings.push(line) },
  };
}

describe('scheduled backups', () => {
  const store = useTestStore();

  it('backs up each slot once and prunes its own old files to keep', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'notes.txt'), 'not a backup');
    const { log } = recordingLog();
    const slots = ['2026-05-01T03:00:00Z', '2026-05-02T03:00:00Z', '2026-05-03T03:00:00Z'];
    for (const slot of slots) {
      const deps = { store: store(), clock: fixedClock(new Date(slot)), log };
      expect(await runBackupSlot(deps, { dir, keep: 2 }, new Date(slot))).toBe('done');
      expect(await runBackupSlot(deps, { dir, keep: 2 }, new Date(slot))).toBe('done elsewhere');
    }
    expect((await readdir(dir)).sort()).toEqual([
      'digest-backup-20260502T030000Z.ndjson.gz',
      'digest-backup-20260503T030000Z.ndjson.gz',
      'notes.txt',
    ]);
    expect(await lastBackupSuccess({ store: store() })).toBe(Date.parse(slots[2] as string) / 1000);
  });

  it('logs a failed backup and keeps the last success where it was', async () => {
    const dir = await tempDir();
    const { log, warnings } = recordingLog();
    const deps = { store: store(), clock: fixedClock(new Date('2026-05-01T03:00:00Z')), log };
    // A file where the folder should be: the backup cannot be written.
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, '');
    expect(await runBackupSlot(deps, { dir: blocked, keep: 2 }, new Date('2026-05-01T03:00:00Z'))).toBe(
      'failed',
    );
    expect(warnings.join('\n')).toMatch(/scheduled backup of 2026-05-01T03:00:00.000Z failed/);
    expect(await lastBackupSuccess({ store: store() })).toBeNull();
  });
});
