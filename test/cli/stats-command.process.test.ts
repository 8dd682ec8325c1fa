// `digest stats`: what readers did with a published edition, read back through the real CLI from a PGlite data
// folder holding three published editions, their clicks (scanner prefetches apart) and a send log.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EditionStats } from '../../src/editions/index.js';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { confirmedReaders, mailEdition } from '../support/mailed-readers.js';
import { DRAFT_DATE, seedArchiveDataDir } from '../support/published-archive.js';

describe('digest stats', () => {
  let cwd: string;
  let dataDir: string;
  let newest = '';
  let clicked: string[] = [];

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-stats-'));
    dataDir = join(cwd, 'data');
    const editions = await seedArchiveDataDir(dataDir);
    const edition = editions.at(-1)!;
    newest = edition.date;
    clicked = edition.items.slice(0, 2).map((item) => item.key);
    const store = await openStore({ dataDir });
    try {
      // Two readers clicked two items; a scanner fetched every link of the mail.
      await store.clicks.add(
        edition.items.map((item) => ({
          edition: newest,
          revision: 1,
          itemKey: item.key,
          channel: 'mail' as const,
          day: newest,
          clicks: item.key === clicked[0] ? 2 : item.key === clicked[1] ? 1 : 0,
          prefetched: 1,
        })),
        [],
      );
      // Mailed to three readers: ada complains (a spam report), bob unsubscribes.
      const [ada, bob] = await confirmedReaders(store, ['ada', 'bob', 'cy']);
      await mailEdition(store, newest);
      await store.subscribers.recordComplaint(ada!.id);
      await store.subscribers.setStatus(bob!.id, 'unsubscribed', ['confirmed']);
    } finally {
      await store.close();
    }
  }, 60_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('--json: the clicked items with their counts and shares, the prefetches apart, the trend', async () => {
    const run = await runDigest(['stats', '--json', '--data-dir', dataDir], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout) as EditionStats;
    expect(stats.edition).toBe(newest);
    expect(stats.clicks).toBe(3);
    expect(stats.prefetched).toBe(stats.items.length);
    const withClicks = stats.items.filter((item) => item.clicks > 0);
    expect(withClicks.map((item) => [item.key, item.clicks, item.share])).toEqual([
      [clicked[0], 2, 0.667],
      [clicked[1], 1, 0.333],
    ]);
    expect(stats.items.every((item) => item.uniqueReaders === null)).toBe(true);
    // The complaint counts once, as a complaint, not among the unsubscribes.
    expect(stats.mail).toMatchObject({ sent: 3, bounced: 0, complained: 1, unsubscribed: 1 });
    expect(stats.trend.map((point) => point.edition)).toEqual(
      [...stats.trend.map((point) => point.edition)].sort().reverse(),
    );
    expect(stats.trend[0]).toMatchObject({ edition: newest, clicks: 3, prefetched: stats.items.length });
    expect(stats.trend).toHaveLength(3);
  });

  it('--json in per-reader mode: an item nobody clicked has 0 readers, not null', async () => {
    writeFileSync(join(cwd, 'per-reader.json'), JSON.stringify({ analytics: 'per-reader' }));
    const run = await runDigest(['stats', '--json', '--config', 'per-reader.json', '--data-dir', dataDir], {
      cwd,
    });
    expect(run.code, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout) as EditionStats;
    expect(stats.items.map((item) => item.uniqueReaders)).toEqual(stats.items.map(() => 0));
  });

  it('prints a table of the items and the trend', async () => {
    const run = await runDigest(['stats', '--week', newest, '--data-dir', dataDir], { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Edition ${newest}`);
    expect(run.stdout).toMatch(/3 click\(s\) by readers; \d+ prefetch\(es\) by link scanners/);
    expect(run.stdout).toMatch(/^ +1 +2 +67% +1 /m);
    expect(run.stdout).toContain('Trend (newest first)');
    expect(run.stdout).toContain(
      'Mails sent: 3; before the next edition: bounces: 0; complaints: 1; unsubscribes: 1.',
    );
    expect(run.stdout).toMatch(new RegExp(`^  ${newest} +3 +3 +1 +\\d+ +0 +1 +1$`, 'm'));
  });

  it('exits 2 on a bad --week and 1 for a week with no published edition', async () => {
    const bad = await runDigest(['stats', '--week', '2026-02-30', '--data-dir', dataDir], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--week/);
    const draft = await runDigest(['stats', '--week', DRAFT_DATE, '--data-dir', dataDir], { cwd });
    expect(draft.code, draft.stderr).toBe(1);
    expect(draft.stderr).toContain(`No published edition for ${DRAFT_DATE}`);
  });

  it('digest taste says what readers taught it (too few clicks here to learn from)', async () => {
    const run = await runDigest(['taste', '--week', newest, '--json', '--data-dir', dataDir], { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { readers: unknown }).readers).toBeNull();
    const text = await runDigest(['taste', '--week', newest, '--data-dir', dataDir], { cwd });
    expect(text.stdout).toContain('What readers taught it: nothing yet');
  });
});
