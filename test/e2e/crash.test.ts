// Kill the real CLI (SIGKILL) in the middle of ingest; a rerun must finish the job with no duplicates.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'digest.js');
const WEEK = '2026-06-22';

describe('a build killed during ingest', () => {
  let server: LoopbackServer;
  let cwd: string;
  let holdSlowFeed = true;
  const pending: (() => void)[] = [];

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    const takara = readFixture('real', 'hf-daily-papers-rss', 'takara_papers_feed_2026-04-30.xml');
    server = await startLoopback(async (request, response) => {
      if (request.path === '/slow.xml' && holdSlowFeed) {
        // Held open until the test has killed the process: ingest is guaranteed to be mid-way.
        await new Promise<void>((resolve) => pending.push(resolve));
      }
      const body = request.path === '/fast.xml' ? feed : takara;
      response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-crash-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        sources: [
          { id: 'rss-fast', type: 'feed', url: server.url('/fast.xml') },
          { id: 'rss-slow', type: 'feed', url: server.url('/slow.xml') },
        ],
        http: { retries: 0 },
      }),
    );
  });
  afterAll(async () => {
    for (const release of pending) release();
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('leaves a consistent store, and the rerun completes without duplicates', async () => {
    const child = spawn(process.execPath, [BIN, 'build', '--week', WEEK, '--no-enrich'], {
      cwd,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal ? -1 : _code)),
    );
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/✓ rss-fast/.test(stderr)) resolve();
      });
      child.on('exit', () => reject(new Error(`exited before the first source was stored:\n${stderr}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe(-1);

    holdSlowFeed = false;
    for (const release of pending.splice(0)) release();
    const rerun = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(rerun.code, rerun.stderr).toBe(0);
    const again = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(again.code, again.stderr).toBe(0);

    const list = await runDigest(['list', '--week', WEEK, '--json'], { cwd });
    const rows = (JSON.parse(list.stdout) as { candidates: { key: string; title: string }[] }).candidates;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
    const edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
    expect(edition.sources.map((source) => source.status)).toEqual(['ok', 'ok']);
  }, 120_000);
});
