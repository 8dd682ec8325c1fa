// The published site in real Chromium: text, layout at 375/1280 px, dark mode, axe-core, the CSP and search.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/publish-site.js';
import { launchChromium, openPage, runAxe, saveScreenshot } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import type { LoopbackServer } from '../support/loopback.js';
import { weeklyEditions } from './_editions.js';
import { memoryFileSystem } from './_memory-fs.js';
import { serveSite } from './_serve-site.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('publish/site.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

describe.skipIf(!hasChromium)('published site in Chromium', () => {
  const editions = weeklyEditions(3);
  const edition = editions[2]!;
  let browser: Browser;
  let site: LoopbackServer;

  beforeAll(async () => {
    const fs = memoryFileSystem();
    await publishSite({ fs, outDir: '/site', editions, baseUrl: 'https://digest.example.org/' });
    site = await serveSite(fs, '/site');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const width of [375, 1280]) {
    it(`edition page at ${width} px: every item readable, nothing wider than the screen`, async () => {
      const { page, context, violations } = await openPage(browser, { width, allowOrigin: site.origin });
      try {
        await page.goto(site.url('/2026-05-04/index.html'));
        const text = await page.locator('main').textContent();
        for (const item of edition.items) {
          expect(text).toContain(item.title);
          expect(text).toContain(item.summary);
        }
        expect(text).toContain('May 4, 2026 · 12 papers');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const imageBox = await page.locator('li.card img').first().boundingBox();
        expect(imageBox!.width).toBeLessThanOrEqual(width);
        expect(await page.locator('script').count()).toBe(0);
        expect(await violations()).toEqual([]);
        await saveScreenshot(page, `edition-${width}`);
      } finally {
        await context.close();
      }
    });
  }

  it('switches to a dark palette when the reader prefers it, and hides navigation in print', async () => {
    const { page, context } = await openPage(browser, { width: 1280, allowOrigin: site.origin });
    try {
      await page.goto(site.url('/2026-05-04/index.html'));
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const light = await background();
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await background();
      expect(light).toBe('rgb(247, 247, 245)');
      expect(dark).toBe('rgb(18, 19, 22)');
      await saveScreenshot(page, 'edition-1280-dark');
      await page.emulateMedia({ media: 'print', colorScheme: 'light' });
      expect(await page.locator('.site nav').isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  for (const [name, path] of [
    ['edition page', '/2026-05-04/index.html'],
    ['archive', '/index.html'],
    ['404 page', '/no/such/page'],
    ['search page', '/search/index.html?q=agents'],
  ] as const) {
    it(`axe-core finds no violations on the ${name}`, async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, {
          width: 1280,
          bypassCSP: true,
          allowOrigin: site.origin,
        });
        try {
          await page.emulateMedia({ colorScheme });
          await page.goto(site.url(path));
          expect(await runAxe(page), `${name} (${colorScheme})`).toEqual([]);
        } finally {
          await context.close();
        }
      }
    });
  }

  it('archive at 375 px lists every edition newest first', async () => {
    const { page, context } = await openPage(browser, { width: 375, allowOrigin: site.origin });
    try {
      await page.goto(site.url('/'));
      const titles = await page.locator('.archive li a').allInnerTexts();
      expect(titles).toEqual([...editions].reverse().map((entry) => entry.title));
      await saveScreenshot(page, 'archive-375');
    } finally {
      await context.close();
    }
  });

  it('search finds items across the archive with its external script, within the page policy', async () => {
    const { page, context, violations } = await openPage(browser, { width: 375, allowOrigin: site.origin });
    try {
      await page.goto(site.url('/search/index.html?q=safety%20drift'));
      await expect.poll(() => page.locator('#search-results li').count()).toBe(3);
      expect(await page.locator('#search-status').textContent()).toBe('3 matches.');
      const href = await page.locator('#search-results a').first().getAttribute('href');
      expect(href).toBe(
        '../2026-05-04/index.html#item-safety-drift-after-fine-tuning-evidence-from-high-stakes-dom',
      );
      await page.locator('#search-input').fill('2604.24819');
      await expect.poll(() => page.locator('#search-results li').count()).toBe(3);
      await page.locator('#search-input').fill('no-such-word');
      await expect.poll(() => page.locator('#search-status').textContent()).toBe('No matches.');
      await page.locator('#search-input').fill('programming data 2026-04-20');
      await expect.poll(() => page.locator('#search-results li').count()).toBe(1);
      await page.locator('#search-results a').first().click();
      await page.waitForURL(/2026-04-20\/index\.html#item-programming/);
      expect(await page.locator(':target h2').textContent()).toContain('Programming with Data');
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
