// The published site in real Chromium: text, layout at 375/1280 px, dark mode, axe-core, the CSP and search.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { publishSite } from '../../src/publish/publish-site.js';
import { launchChromium, openPage, runAxe, saveScreenshot } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import type { LoopbackServer } from '../support/loopback.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { IMAGE_PATHS, imageClient, startImageServer, withImages } from './_image-server.js';
import { serveSite } from './_serve-site.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('publish/site.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

describe.skipIf(!hasChromium)('published site in Chromium', () => {
  let editions: Edition[];
  let edition: Edition;
  let browser: Browser;
  let site: LoopbackServer;
  let imageHost: LoopbackServer;

  beforeAll(async () => {
    imageHost = await startImageServer();
    // Images from a loopback host: a good PNG, and ones that fail (HTML, too big, 404, SVG) for the no-image path.
    editions = weeklyEditions(3).map((entry) => withImages(entry, imageHost, IMAGE_PATHS));
    edition = editions[2]!;
    const fs = memoryFileSystem();
    await publishSite({
      fs,
      outDir: '/site',
      editions,
      baseUrl: 'https://digest.example.org/',
      fetchImages: { http: imageClient() },
    });
    site = await serveSite(fs, '/site');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await imageHost?.close();
  });

  it('shows the published images from the site itself, and no empty grey box where an image failed', async () => {
    const { page, context, violations } = await openPage(browser, { width: 1280, allowOrigin: site.origin });
    try {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(site.url('/2026-05-04/index.html'));
      // Load the lazy images now; decode() fails for an image that cannot be shown.
      await page.locator('li.card img').evaluateAll((images) =>
        Promise.all(
          images.map((image) => {
            (image as HTMLImageElement).loading = 'eager';
            return (image as HTMLImageElement).decode();
          }),
        ),
      );
      const cards = await page.locator('li.card').evaluateAll((nodes) =>
        nodes.map((card) => {
          const image = card.querySelector('img');
          const box = card.firstElementChild?.getBoundingClientRect();
          return {
            image: image
              ? {
                  loaded: image.complete && image.naturalWidth > 0,
                  background: getComputedStyle(image).backgroundColor,
                  height: image.getBoundingClientRect().height,
                }
              : null,
            // What the card starts with: the image, or straight the level badge (no placeholder before it).
            first: card.firstElementChild?.className ?? card.firstElementChild?.tagName,
            firstHeight: box?.height ?? 0,
          };
        }),
      );
      const good = edition.items.map((item) => item.image?.endsWith('/good.png') ?? false);
      expect(cards.map((card) => card.image !== null)).toEqual(good);
      for (const card of cards) {
        if (card.image) {
          expect(card.image.loaded).toBe(true);
          expect(card.image.background).toBe('rgba(0, 0, 0, 0)');
          expect(card.image.height).toBeGreaterThan(0);
        } else {
          expect(card.first).toMatch(/^badge /);
          expect(card.firstHeight).toBeLessThan(60);
        }
      }
      // Only the site's own origin was asked for anything: never the image host.
      expect(requested.filter((url) => !url.startsWith(site.origin) && !url.startsWith('data:'))).toEqual([]);
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
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
