// The site with publish.identity's accent colour and logo in real Chromium: the page's own policy lets exactly its
// stylesheet and the logo through (no violation, the accent applied, the logo shown), and axe-core (contrast
// included) finds nothing at 1280 and 390 px.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load-config.js';
import { publishSite } from '../../src/publish/publish-site.js';
import { launchChromium, openPage, runAxe } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import type { LoopbackServer } from '../support/loopback.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { serveSite } from './_serve-site.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('publish/site-look.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

// A purple the config accepts (5.2:1 on the mail's grey), far from the site's own blue.
const ACCENT = '#8a2be2';
const PAGES = ['/index.html', '/2026-05-04/index.html'];

describe.skipIf(!hasChromium)('the site with an accent colour and a logo, in Chromium', () => {
  let browser: Browser;
  let site: LoopbackServer;

  beforeAll(async () => {
    const config = parseConfig({
      name: 'Agents Weekly',
      publish: { identity: { accentColor: ACCENT, logoUrl: 'https://cdn.example.net/logo.png' } },
    });
    const fs = memoryFileSystem();
    await publishSite({
      fs,
      outDir: '/site',
      editions: weeklyEditions(3),
      baseUrl: 'https://digest.example.org/',
      siteName: config.name,
      look: config.publish.identity,
    });
    site = await serveSite(fs, '/site');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("applies the accent and shows the logo within the page's own policy", async () => {
    const { page, context, violations } = await openPage(browser, { width: 1280, allowOrigin: site.origin });
    try {
      for (const path of PAGES) {
        await page.goto(site.url(path));
        const shown = await page.evaluate(() => {
          const logo = document.querySelector<HTMLImageElement>('header.site img.logo');
          const link = document.querySelector('main a');
          return {
            logo: logo ? { loaded: logo.complete && logo.naturalWidth > 0, alt: logo.alt } : null,
            link: link ? getComputedStyle(link).color : null,
          };
        });
        expect(shown, path).toEqual({
          logo: { loaded: true, alt: 'Agents Weekly' },
          link: 'rgb(138, 43, 226)',
        });
      }
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const width of [1280, 390]) {
    it(`axe-core finds no violations at ${width} px, light and dark`, async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, {
          width,
          bypassCSP: true,
          allowOrigin: site.origin,
        });
        try {
          await page.emulateMedia({ colorScheme });
          for (const path of PAGES) {
            await page.goto(site.url(path));
            expect(await runAxe(page), `${path} (${colorScheme})`).toEqual([]);
          }
        } finally {
          await context.close();
        }
      }
    });
  }
});
