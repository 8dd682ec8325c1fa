// SIGTERM / SIGINT during a build: work in flight is aborted, the store closed, its lock released, exit 143 / 130.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'digest.js');
const WEEK = '2026-06-22';

describe('a build stopped by a signal', () => {
  let server: LoopbackServer;
  let cwd: string;
  const pending: (() => void)[] = [];

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    server = await startLoopback(async (request, response) => {
      // The slow feed never answers while the test runs: the build is certainly waiting on it.
      if (request.path === '/slow.xml') await new Promise<void>((resolve) => pending.push(resolve));
      response.writeHead(200, { 'content-type': 'application/xml' }).end(feed);
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-signal-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        sources: [
          { id: 'rss-fast', type: 'feed', url: server.url('/fast.xml') },
          { id: 'rss-slow', type: 'feed', url: server.url('/slow.xml') },
        ],
        http: { retries: 0, timeoutMs: 120_000 },
      }),
    );
  });
  afterAll(async () => {
    for (const release of pending) release();
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: aborts, says so, releases the lock (exit ${code}); the next command runs`, async () => {
      const child = spawn(process.execPath, [BIN, 'build', '--week', WEEK, '--no-enrich'], {
        cwd,
        env: { ...process.env, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', (exit) => resolve(exit)));
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/✓ rss-fast/.test(stderr)) resolve();
        });
        child.on('exit', () => reject(new Error(`exited before the first source was stored:\n${stderr}`)));
      });
      child.kill(signal);
      expect(await exited, stderr).toBe(code);
      expect(stderr).toMatch(new RegExp(`Stopped by ${signal}`));
      expect(existsSync(join(cwd, 'data', 'digest.lock'))).toBe(false);

      const list = await runDigest(['list', '--week', WEEK, '--json'], { cwd });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stderr).not.toMatch(/took over|stale/i);
    }, 60_000);
  }
});
