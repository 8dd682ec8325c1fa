// The commands about one week share one shape (cli/options.ts weekCommand): --week first, then --out where the
// command writes a folder, its own flags, the store flags last; --out is checked before the data folder is touched.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';

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
});
