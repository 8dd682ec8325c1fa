// The subscribe form follows what `digest serve` can do: a published site holds only a slot for it (a static copy
// shows no form); the real server fills it on every page once a base URL and SMTP are configured, and otherwise says
// at start, in one block, what is missing and the config to add — which, added as printed, makes subscribing work.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { publishSite } from '../../src/publish/publish-site.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { subscribeReadiness } from '../../src/subscribers/subscribe-readiness.js';
import { freePort } from '../support/loopback.js';
import { type Served, startServe } from '../support/serve.js';
import { type LoopbackSmtp, linkIn, startSmtp } from '../support/smtp-inbox.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FORM = /<form class="search-form" method="post" action="([^"]*)subscribe">/;
const PAGES = ['', '2026-05-04/', 'search/index.html', 'no-such-page'];

/** Resolves once the server's stderr matches (the start-up block is written before the address, not awaited). */
function stderrMatching(served: Served, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      if (pattern.test(served.stderr())) {
        served.child.stderr?.off('data', check);
        resolve(served.stderr());
      }
    };
    served.child.stderr?.on('data', check);
    check();
  });
}

async function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null || served.child.signalCode !== null) return;
  served.child.kill('SIGTERM');
  await served.exited;
}

describe('the subscribe slot and digest serve', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let port: number;
  let served: Served | undefined;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run npm run build');
    cwd = await mkdtemp(join(tmpdir(), 'digest-subscribe-form-'));
    smtp = await startSmtp();
    port = await freePort();
    await publishSite({
      fs: nodeFileSystem,
      outDir: join(cwd, 'out'),
      editions: weeklyEditions(2),
      baseUrl: `http://127.0.0.1:${port}/`,
    });
  }, 60_000);

  afterAll(async () => {
    await stop(served);
    await smtp?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('a published site (a static export) holds a slot and no form', async () => {
    for (const file of ['index.html', '2026-05-04/index.html', 'search/index.html', '404.html']) {
      const page = await readFile(join(cwd, 'out', file), 'utf8');
      expect(page).toMatch(/<!--digest:subscribe root="[^"]*"-->/);
      expect(page).not.toMatch(FORM);
    }
  });

  it('unconfigured, serve shows no form and prints one block with the config to add', async () => {
    served = await startServe({ cwd, site: 'out', dataDir: 'data', port });
    const stderr = await stderrMatching(served, /add to .*\n +(\{.*\})\n/);
    expect(stderr.match(/subscribing is off/g)).toHaveLength(1);
    expect(stderr).toContain('missing: publish.baseUrl');
    expect(stderr).toContain('missing: publish.email.smtp');
    for (const path of PAGES) expect(await (await fetch(`${served.url}${path}`)).text()).not.toMatch(FORM);
    expect((await fetch(`${served.url}subscribe`, { method: 'POST' })).status).toBe(405);
    await stop(served);

    // The printed config, as printed; only the mail catcher's port is this test's SMTP server instead of 1025.
    const addition = JSON.parse(/add to .*\n +(\{.*\})\n/.exec(stderr)![1]!) as {
      publish: { baseUrl: string; email: { smtp: { port: number } } };
    };
    expect(addition.publish.baseUrl).toBe(`http://127.0.0.1:${port}/`);
    expect(addition.publish.email.smtp.port).toBe(1025);
    addition.publish.email.smtp.port = smtp.port;
    await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(addition));

    served = await startServe({ cwd, site: 'out', dataDir: 'data', port });
    expect(served.stderr()).not.toContain('subscribing is off');
    const actions: Record<string, string> = {};
    for (const path of PAGES) {
      const page = await (await fetch(`${served.url}${path}`)).text();
      actions[path] = FORM.exec(page)?.[1] ?? 'no form';
    }
    expect(actions).toEqual({
      '': '',
      '2026-05-04/': '../',
      'search/index.html': '../',
      'no-such-page': `http://127.0.0.1:${port}/`,
    });
    const answer = await fetch(`${served.url}subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://127.0.0.1:${port}` },
      body: 'email=reader%40example.org&website=',
    });
    expect(answer.status).toBe(200);
    const mail = await smtp.next(1);
    expect(mail.to).toEqual(['reader@example.org']);
    expect(linkIn(mail, `http://127.0.0.1:${port}/confirm?token=`)).toBeTruthy();
    await stop(served);
  }, 120_000);

  it('server.subscribeForm: false hides the form and the block; true writes it into the files', () => {
    const works = {
      publish: { baseUrl: 'https://digest.example.org', email: { smtp: { host: 'smtp.example.org' } } },
    };
    expect(subscribeReadiness(parseConfig(works), null).transformHtml).not.toBeNull();
    const hidden = subscribeReadiness(parseConfig({ ...works, server: { subscribeForm: false } }), null);
    expect(hidden.transformHtml).toBeNull();
    expect(
      subscribeReadiness(parseConfig({ server: { subscribeForm: false } }), null).missing('x'),
    ).toBeNull();
    const noSmtp = subscribeReadiness(
      parseConfig({ publish: { baseUrl: 'https://d.example.org' } }),
      'c.json',
    );
    expect(noSmtp.transformHtml).toBeNull();
    expect(noSmtp.missing('http://127.0.0.1:8080/')).toMatch(
      /answers 503[\s\S]*add to c\.json:\n {4}\{"publish":\{"email"/,
    );
  });
});
