// The site as `digest serve` serves it, in real Chromium: the search page works under the server's policy.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContentSecurityPolicy } from '../../src/publish/site-policy.js';
import { createServerApp, type RunningServer, startServer } from '../../src/server/index.js';
import { launchChromium, openPage } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('server/site.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

describe.skipIf(!hasChromium)('the served site in Chromium', () => {
  let site: TempSite;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await publishTempSite();
    const app = createServerApp({
      site: { dir: site.dir, contentSecurityPolicy: siteContentSecurityPolicy() },
      health: { checkDatabase: async () => {} },
      log: () => {},
    });
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.remove();
  });

  it('search runs its same-origin script and index fetch; no script is blocked', async () => {
    const origin = server.url.slice(0, -1);
    const { page, context, violations } = await openPage(browser, { width: 1280, allowOrigin: origin });
    try {
      await page.goto(`${server.url}search/?q=agent`);
      await page.locator('input[type="search"]').fill('agent');
      await expect.poll(() => page.locator('main li').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('pages are styled under the header policy, and nothing is blocked', async () => {
    const origin = server.url.slice(0, -1);
    const { page, context, violations } = await openPage(browser, { width: 1280, allowOrigin: origin });
    try {
      const response = await page.goto(server.url);
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      // The stylesheet applied: the body no longer has the browser's default 8px margin.
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).not.toBe('8px');
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
