// The whole subscriber flow in real Chromium against the real `digest serve` process on loopback: the front page's
// form → the confirmation mail on a loopback SMTP server → its link → its button → confirmed → an unsubscribe link → the button →
// unsubscribed; axe-core on every page of the flow. Needs `npm run build` (bin/digest.js runs dist/).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/publish-site.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { openStore } from '../../src/store/open-store.js';
import { createSubscriberTokens } from '../../src/subscribers/tokens.js';
import { launchChromium, type OpenedPage, openPage, runAxe } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import { freePort } from '../support/loopback.js';
import { OPERATOR_HEADERS, type Served, startServe } from '../support/serve.js';
import { type LoopbackSmtp, linkIn, startSmtp } from '../support/smtp-inbox.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
const hasChromium = chromiumPath() !== null;
if (!hasChromium) announceSkip('subscribe.browser', 'Chromium is not installed');

describe.skipIf(!hasChromium)('subscribe → confirm → unsubscribe in Chromium against digest serve', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let served: Served;
  let base: string;
  let browser: Browser;
  let opened: OpenedPage;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    cwd = await mkdtemp(join(tmpdir(), 'digest-subscribe-e2e-'));
    smtp = await startSmtp();
    // The public base URL is the loopback address itself, so the browser's Origin is the allowed one.
    const port = await freePort();
    base = `http://127.0.0.1:${port}/`;
    await publishSite({
      fs: nodeFileSystem,
      outDir: join(cwd, 'site'),
      editions: weeklyEditions(2),
      baseUrl: base,
      subscribeForm: true,
    });
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        name: 'Loopback Digest',
        server: { baseUrl: base, subscribeForm: true },
        publish: {
          baseUrl: base,
          email: {
            from: 'Loopback Digest <digest@example.org>',
            smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
          },
        },
      }),
    );
    served = await startServe({ cwd, site: 'site', dataDir: 'data', port, secret: SECRET });
    browser = await launchChromium();
    // axe-core is injected as a script, which the pages' policy rightly forbids: this context bypasses it.
    opened = await openPage(browser, { width: 1000, bypassCSP: true, allowOrigin: base.slice(0, -1) });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    const child = served?.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await smtp?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  async function seriousViolations(): Promise<string[]> {
    return (await runAxe(opened.page))
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.join(', ')})`);
  }

  async function subscribers(): Promise<string> {
    const metrics = await (await fetch(new URL('metrics', base), { headers: OPERATOR_HEADERS })).text();
    return metrics
      .split('\n')
      .filter((line) => line.startsWith('digest_subscribers{'))
      .join('\n');
  }

  it('walks the flow; every page has 0 serious or critical axe violations', async () => {
    const { page } = opened;
    await page.goto(base);
    expect(await seriousViolations()).toEqual([]);
    await page.getByLabel('Email address').fill('Reader+News@Example.org');
    await Promise.all([
      page.waitForURL(`${base}subscribe`),
      page.getByRole('button', { name: 'Subscribe' }).click(),
    ]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your inbox');
    expect(await seriousViolations()).toEqual([]);

    const mail = await smtp.next(1);
    expect(mail.to).toEqual(['reader+news@example.org']);
    const confirm = linkIn(mail, `${base}confirm?token=`);
    expect(await subscribers()).toContain('digest_subscribers{status="pending"} 1');

    // The link opens a page with a button (a mail scanner that follows links confirms nobody); the button confirms.
    await page.goto(confirm);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Confirm your subscription',
    );
    expect(await seriousViolations()).toEqual([]);
    expect(await subscribers()).toContain('digest_subscribers{status="pending"} 1');
    await Promise.all([
      page.waitForURL(`${base}confirm`),
      page.getByRole('button', { name: 'Confirm my subscription' }).click(),
    ]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You are subscribed');
    expect(await seriousViolations()).toEqual([]);
    expect(await subscribers()).toContain('digest_subscribers{status="confirmed"} 1');

    // The link every mail carries, signed with the server's secret for this reader (row 1 of a new database).
    const token = createSubscriberTokens(Buffer.from(SECRET), Date.now).issue('unsubscribe', {
      id: '1',
      address: 'reader+news@example.org',
    });
    await page.goto(`${base}unsubscribe?token=${token}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Unsubscribe?');
    expect(await seriousViolations()).toEqual([]);
    // Opening the page changed nothing.
    expect(await subscribers()).toContain('digest_subscribers{status="confirmed"} 1');
    await Promise.all([
      page.waitForURL(`${base}unsubscribe`),
      page.getByRole('button', { name: 'Unsubscribe' }).click(),
    ]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You are unsubscribed');
    expect(await seriousViolations()).toEqual([]);
    expect(await subscribers()).toContain('digest_subscribers{status="unsubscribed"} 1');
    expect(smtp.received).toHaveLength(1);
  }, 120_000);

  it('after the server stops, the store shows the reader confirmed once and now unsubscribed', async () => {
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      const reader = await store.subscribers.get({ address: 'reader+news@example.org' });
      expect(reader).toMatchObject({ status: 'unsubscribed', mailbox: 'reader@example.org' });
      expect(reader?.confirmedAt).not.toBeNull();
      expect(reader?.unsubscribedAt).not.toBeNull();
    } finally {
      await store.close();
    }
  }, 60_000);
});
