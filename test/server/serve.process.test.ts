// The real `digest serve` process (bin/digest.js) on loopback: it serves a published site, then stops on SIGTERM.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../support/serve.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('digest serve (real process)', () => {
  let site: TempSite;
  let cwd: string;
  let served: Served;

  beforeAll(async () => {
    // bin/digest.js runs dist/: `npm test` builds it first (pretest); a bare `npx vitest` needs `npm run build`.
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    site = await publishTempSite();
    cwd = await mkdtemp(join(tmpdir(), 'digest-serve-cwd-'));
    served = await startServeIn(site, cwd);
  }, 120_000);

  afterAll(async () => {
    if (served && served.child.exitCode === null && served.child.signalCode === null)
      served.child.kill('SIGKILL');
    await site?.remove();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('prints the loopback URL it listens on', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(served.url).not.toContain(':0/');
  });

  it('accepts --site, the former name of --out, and says to write --out', () => {
    expect(served.stderr()).toContain(
      '--site is the former name of --out: it still works; write --out <dir>',
    );
  });

  it('serves the front page and an edition over loopback, compressed, with the headers', async () => {
    const front = await fetch(served.url);
    expect(front.status).toBe(200);
    expect(await front.text()).toBe(readFileSync(join(site.dir, 'index.html'), 'utf8'));
    expect(front.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const edition = await fetch(new URL('2026-05-04/', served.url), { headers: { 'accept-encoding': 'br' } });
    expect(edition.headers.get('content-encoding')).toBe('br');
    // fetch decodes brotli itself: the page arrives whole.
    expect(await edition.text()).toBe(readFileSync(join(site.dir, '2026-05-04', 'index.html'), 'utf8'));
    const health = await fetch(new URL('healthz', served.url));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    const lines = served
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { path: string; ip: string; status: number });
    expect(lines.find((line) => line.path === '/2026-05-04/')).toMatchObject({
      ip: '127.0.0.1',
      status: 200,
    });
  });

  it('stops cleanly on SIGTERM: server closed, then the store, exit 0', async () => {
    // A kept-alive connection from the fetches above must not hold the shutdown.
    served.child.kill('SIGTERM');
    const { code, signal } = await served.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(served.stderr()).toMatch(/SIGTERM: closing the server…\nServer closed; closing the store\.\n/);
    expect(served.stderr()).not.toMatch(/error/i);
    await expect(fetch(served.url)).rejects.toThrow();
  }, 30_000);
});

function startServeIn(site: TempSite, cwd: string) {
  // Started with --site, the former name of --out, as an older unit file would: it serves, and says the new name.
  return startServe({ cwd, site: site.dir, dataDir: 'data', siteFlag: '--site' });
}
