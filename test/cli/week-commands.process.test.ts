// The commands about one week share one shape (cli/options.ts weekCommand): --week first, then --out where the
// command writes a folder, its own flags, the store flags last; --out is checked before the data folder is touched.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { paperItem } from '../support/source-items.js';

const WEEK_COMMANDS: [string, string[]][] = [
  ['build', ['--out', '--no-ingest', '--max-cost']],
  ['list', ['--json', '--limit', '--no-triage']],
  ['add', ['--note', '--offline']],
  ['pin', ['--undo']],
  ['skip', ['--undo']],
  ['taste', ['--reset', '--json']],
  ['stats', ['--json']],
  ['eval', ['--models', '--max-cost', '--json']],
  ['email', ['--out', '--send', '--to']],
  ['chat', ['--channel', '--again']],
  ['push', ['--to', '--base-url']],
  ['send', ['--dry-run', '--resend-uncertain', '--base-url']],
];

/** The flags in the order --help lists them. */
function flagsOf(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1] ?? '');
}

describe('week commands', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-week-'));
    writeFileSync(join(cwd, 'a-file'), 'not a folder');
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  for (const [name, own] of WEEK_COMMANDS) {
    it(`digest ${name} --help: --week first, its own flags in order, the store flags last`, async () => {
      const run = await runDigest([name, '--help'], { cwd });
      expect(run.code).toBe(0);
      const flags = flagsOf(run.stdout);
      expect(flags[0]).toBe('--week');
      const positions = own.map((flag) => flags.indexOf(flag));
      expect(positions.every((position) => position > 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      const store = ['--config', '--data-dir', '--verbose'].map((flag) => flags.indexOf(flag));
      expect(store.every((position) => position > Math.max(...positions))).toBe(true);
      expect(flags.at(-1)).toBe('--help');
    });
  }

  it('a bad --out is reported before the data folder is looked at or made', async () => {
    for (const name of ['build', 'email']) {
      const run = await runDigest([name, '--out', 'a-file', '--data-dir', '/sys/kernel'], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/--out .*a-file: is not a folder/);
      expect(run.stderr).not.toMatch(/--data-dir/);
    }
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });

  it('a bad --week is reported before any folder is checked', async () => {
    const run = await runDigest(['email', '--week', '2026-02-30', '--out', 'a-file'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--week/);
    expect(run.stderr).not.toMatch(/--out/);
  });

  it('a week that has not begun is exit 2 before any request, folder or store', async () => {
    for (const args of [
      ['build', '--week', '2099-01-05'],
      ['add', 'https://example.com/post', '--week', '2099-01-05'],
      ['pin', 'arxiv:2605.00001', '--week', '2099-01-05'],
    ]) {
      const run = await runDigest([...args, '--data-dir', 'future-data'], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        /--week 2099-01-05: that week has not begun \(its items are from 2098-12-30/,
      );
    }
    expect(existsSync(join(cwd, 'future-data'))).toBe(false);
  });

  it('stats and list refuse a data folder that does not exist instead of making an empty one', async () => {
    for (const name of ['stats', 'list']) {
      const run = await runDigest([name, '--week', '2026-05-04', '--data-dir', 'dtaa'], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/--data-dir .*dtaa: no data folder there/);
    }
    expect(existsSync(join(cwd, 'dtaa'))).toBe(false);
  });

  it("pin and skip of an item that is not the week's candidate are exit 2 naming the nearest keys", async () => {
    const dataDir = join(cwd, 'pin-data');
    const store = await openStore({ dataDir });
    try {
      await store.items.upsert(['2605.00011', '2605.00012', '2605.00013'].map((id) => paperItem(id)));
      await store.items.upsert([paperItem('2604.00099', { publishedAt: '2026-04-10T09:00:00.000Z' })]);
    } finally {
      await store.close();
    }
    const at = ['--week', '2026-05-04', '--data-dir', dataDir];
    for (const name of ['pin', 'skip']) {
      // A typo, and an item stored but of another week: neither would change the build.
      for (const item of ['arxiv:2605.00014', 'arxiv:2604.00099']) {
        const run = await runDigest([name, item, ...at], { cwd });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(/is not a candidate of the week of 2026-05-04; nearest: arxiv:2605\.000/);
        expect(run.stdout).not.toMatch(/Pinned|Skipped/i);
      }
    }
    const pinned = await runDigest(['pin', 'arxiv:2605.00012', ...at], { cwd });
    expect(pinned.code, pinned.stderr).toBe(0);
    // Undo names any item (a decision left from an earlier list).
    expect((await runDigest(['pin', '--undo', 'arxiv:2604.00099', ...at], { cwd })).code).toBe(0);
  });
});
