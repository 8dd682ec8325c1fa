// A /metrics scrape of the real `digest serve` reads counts from the database and loads nothing a scrape does not
// run: the mailer (nodemailer, with TLS and DNS) or the AI SDK would stay in the server's memory for good.
// V8's coverage of the process (NODE_V8_COVERAGE, written when it exits) names every script it loaded.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_HEADERS, type Served, startServe } from '../support/serve.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Packages only other paths run: sending mail, calling a model. */
const NOT_FOR_A_SCRAPE = ['/node_modules/nodemailer/', '/node_modules/ai/', '/node_modules/@ai-sdk/'];

/** The scripts the process loaded, by URL, from its coverage files. */
function loadedScripts(coverage: string): string[] {
  return readdirSync(coverage).flatMap((file) =>
    (JSON.parse(readFileSync(join(coverage, file), 'utf8')) as { result: { url: string }[] }).result.map(
      (script) => script.url,
    ),
  );
}

describe('a /metrics scrape of digest serve (real process)', () => {
  let site: TempSite;
  let cwd: string;
  let served: Served;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    site = await publishTempSite();
    cwd = await mkdtemp(join(tmpdir(), 'digest-scrape-'));
    served = await startServe({
      cwd,
      site: site.dir,
      dataDir: 'data',
      env: { NODE_V8_COVERAGE: join(cwd, 'coverage') },
    });
  }, 120_000);

  afterAll(async () => {
    if (served && served.child.exitCode === null && served.child.signalCode === null)
      served.child.kill('SIGKILL');
    await site?.remove();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('answers every gauge from the database without loading the mailer or the AI SDK', async () => {
    expect((await fetch(served.url)).status).toBe(200);
    for (let scrape = 0; scrape < 3; scrape++) {
      const response = await fetch(new URL('metrics', served.url), { headers: OPERATOR_HEADERS });
      expect(response.status).toBe(200);
      const text = await response.text();
      for (const family of ['digest_send_log_mails', 'digest_subscribers', 'digest_link_clicks']) {
        expect(text).toContain(`# TYPE ${family} gauge`);
      }
      expect(text).toMatch(/^digest_subscribers\{status="confirmed"\} 0$/m);
    }
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });

    const scripts = loadedScripts(join(cwd, 'coverage'));
    expect(scripts.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    const loaded = scripts.filter((url) => NOT_FOR_A_SCRAPE.some((part) => url.includes(part)));
    expect(loaded).toEqual([]);
  }, 60_000);
});
