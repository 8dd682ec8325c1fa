// Kill the real CLI (SIGKILL) while a correction publishes: the site it leaves is the old revision or the new one,
// every byte of one of them, never a mix; a rerun puts the new revision live and leaves nothing half-done behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swapFolders } from '../../src/publish/site-swap.js';
import { SAMPLE_WEEK } from '../../src/sample/sample-week.js';
import { runDigest } from '../support/cli.js';
import { filesOf } from '../support/site-tree.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'digest.js');
const REASON = 'The benchmark figure in item 1 was wrong';
const env = { DIGEST_CONFIG_JSON: '' };

/** Runs the real CLI and SIGKILLs it the moment its staging copy of the site appears beside `out/`. */
async function killWhenStaging(cwd: string, args: string[]): Promise<boolean> {
  const { staging } = swapFolders(join(cwd, 'out'));
  let child: ChildProcess | undefined;
  let killed = false;
  const watcher = watch(cwd, (_event, name) => {
    if (name === '.out.publishing' && existsSync(staging) && child) killed = child.kill('SIGKILL');
  });
  try {
    child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env, DATABASE_URL: '' },
      stdio: 'ignore',
    });
    await new Promise((resolve) => child!.on('exit', resolve));
  } finally {
    watcher.close();
  }
  return killed;
}

describe('a correction killed while it publishes', () => {
  let cwd: string;
  let before: Map<string, string>;
  const out = () => join(cwd, 'out');

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-publish-crash-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({ publish: { baseUrl: 'http://127.0.0.1:8080/' } }),
    );
    for (const args of [
      ['demo'],
      ['publish', '--week', SAMPLE_WEEK],
      ['correct', '--week', SAMPLE_WEEK, '--reason', REASON],
    ]) {
      const ran = await runDigest(args, { cwd, env });
      expect(ran.code, `${args[0]}: ${ran.stderr}`).toBe(0);
    }
    const file = join(cwd, 'corrections', `${SAMPLE_WEEK}.json`);
    const draft = JSON.parse(readFileSync(file, 'utf8')) as { title: string };
    writeFileSync(file, JSON.stringify({ ...draft, title: 'A corrected title' }));
    before = await filesOf(out());
  }, 180_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('leaves the old site or the new one whole, and a rerun completes', async () => {
    const correct = [
      'correct',
      '--week',
      SAMPLE_WEEK,
      '--reason',
      REASON,
      '--edition',
      join('corrections', `${SAMPLE_WEEK}.json`),
    ];
    const killed = await killWhenStaging(cwd, correct);
    expect(killed).toBe(true);
    // Stopped between its two renames, the old site waits beside `out/`, whole; anywhere else, `out/` is one site.
    const left = existsSync(out()) ? await filesOf(out()) : await filesOf(swapFolders(out()).previous);

    // The correction may have been stored before the kill (then only its publish is left to do) or not.
    let rerun = await runDigest(correct, { cwd, env });
    if (rerun.code === 2 && /changes nothing/.test(rerun.stderr)) {
      rerun = await runDigest(['publish', '--week', SAMPLE_WEEK], { cwd, env });
    }
    expect(rerun.code, rerun.stderr).toBe(0);
    const after = await filesOf(out());
    const page = readFileSync(join(out(), SAMPLE_WEEK, 'index.html'), 'utf8');
    expect(page).toContain('A corrected title');
    expect(page).toContain('Corrected on');
    expect(existsSync(swapFolders(out()).staging)).toBe(false);
    expect(existsSync(swapFolders(out()).previous)).toBe(false);
    expect(after).not.toEqual(before);
    expect([before, after]).toContainEqual(left);
  }, 180_000);
});
