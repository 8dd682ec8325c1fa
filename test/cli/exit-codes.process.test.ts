// Bad flags, values and commands exit 2 naming them, before any work: no data folder, no output folder.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';

describe('CLI input checks', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-exit-'));
    writeFileSync(join(cwd, 'a-file'), 'not a folder');
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['buidl'], /unknown command 'buidl'/],
    ['an unknown flag', ['build', '--offlne'], /unknown option '--offlne'/],
    ['a negative --max-cost', ['build', '--max-cost', '-1'], /--max-cost.*USD/],
    ['a word for --max-cost', ['build', '--max-cost', 'lots'], /--max-cost.*USD/],
    ['a word for --limit', ['list', '--limit', 'abc'], /--limit.*whole number/],
    ['a zero --limit', ['list', '--limit', '0'], /--limit.*whole number/],
    ['a bad --week', ['build', '--week', '2026-13-45'], /--week.*2026-05-04/],
    ['a missing argument', ['add'], /missing required argument/],
    ['an extra argument', ['pin', 'a', 'b'], /too many arguments/],
    [
      '--out on /proc',
      ['build', '--out', '/proc/self/fd'],
      /--out \/proc\/self\/fd: is on a kernel file system/,
    ],
    ['--out that is a file', ['build', '--out', 'a-file'], /--out .*a-file: is not a folder/],
    [
      '--out under a file',
      ['publish', '--out', 'a-file/site'],
      /--out .*cannot be created: .*a-file is not a folder/,
    ],
    ['--data-dir on /sys', ['list', '--data-dir', '/sys/kernel'], /--data-dir \/sys\/kernel: is on a kernel/],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 2 for ${what}, saying what is wrong, before any work`, async () => {
      const run = await runDigest(args, { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(existsSync(join(cwd, 'data'))).toBe(false);
      expect(existsSync(join(cwd, 'out'))).toBe(false);
    });
  }

  it('exits 2 with the usage when no command is given, and 0 for --help and --version', async () => {
    const bare = await runDigest([], { cwd });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/Usage: digest/);
    const help = await runDigest(['build', '--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit status:/);
    const version = await runDigest(['--version'], { cwd });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 for an item the store does not have', async () => {
    const run = await runDigest(['pin', 'arxiv:0000.00000', '--week', '2026-05-04'], { cwd });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /"arxiv:0000.00000" is not a candidate of the week of 2026-05-04: it has none/,
    );
    rmSync(join(cwd, 'data'), { recursive: true, force: true });
  });
});

describe('CLI messages', () => {
  it('never repeat URL credentials or secret parameters, and shorten long URLs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'digest-redact-'));
    try {
      const secretUrl = `http://user:hunter2@127.0.0.1:9/feed.xml?api_key=sk-secret-123&x=${'a'.repeat(300)}`;
      writeFileSync(
        join(cwd, 'digest.config.json'),
        JSON.stringify({ sources: [{ id: 'rss-x', type: 'feed', url: secretUrl }], http: { retries: 0 } }),
      );
      const run = await runDigest(['build', '--week', '2026-06-22', '--no-enrich'], { cwd });
      expect(run.code).toBe(1);
      const output = run.stdout + run.stderr;
      expect(output).toMatch(/rss-x/);
      expect(output).not.toMatch(/hunter2|sk-secret-123/);
      expect(output).not.toMatch(/a{200}/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
