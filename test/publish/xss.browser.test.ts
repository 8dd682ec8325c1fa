// Hostile source fields through every published surface, in real Chromium: no dialog, no script, no live markup.
// Checked with the pages' Content-Security-Policy on, and again with it bypassed, so escaping alone is proven too.
import { DOMParser } from 'linkedom';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/publish-site.js';
import { launchChromium, openPage, saveScreenshot } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import type { LoopbackServer } from '../support/loopback.js';
import { type MemoryFileSystem, memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { serveSite } from './_serve-site.js';
import { liveMarkup, XSS_VECTORS, xssEdition } from './_xss-edition.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('publish/xss.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

function liveMarkupIn(page: Page): Promise<string[]> {
  return page.evaluate(`(${liveMarkup.toString()})(document)`) as Promise<string[]>;
}

describe.skipIf(!hasChromium)('hostile fields in Chromium', () => {
  const hostile = { ...xssEdition(), date: '2026-05-11', publishedAt: '2026-05-11T09:00:00.000Z' };
  let fs: MemoryFileSystem;
  let browser: Browser;
  let site: LoopbackServer;

  beforeAll(async () => {
    fs = memoryFileSystem();
    await publishSite({
      fs,
      outDir: '/site',
      editions: [...weeklyEditions(1), hostile],
      baseUrl: 'https://digest.example.org/',
    });
    site = await serveSite(fs, '/site');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function expectInert(load: (page: Page) => Promise<void>, bypassCSP: boolean, screenshot?: string) {
    const opened = await openPage(browser, { width: 1280, bypassCSP, allowOrigin: site.origin });
    try {
      await load(opened.page);
      // Give event handlers a chance: hover and focus everything that could carry one.
      await opened.page.mouse.move(200, 300);
      await opened.page.keyboard.press('Tab');
      expect(opened.dialogs).toEqual([]);
      expect(await opened.scriptRan()).toBe(false);
      expect(await liveMarkupIn(opened.page)).toEqual([]);
      if (!bypassCSP) expect(await opened.violations()).toEqual([]);
      if (screenshot) await saveScreenshot(opened.page, screenshot);
    } finally {
      await opened.context.close();
    }
  }

  for (const bypassCSP of [false, true]) {
    const mode = bypassCSP ? 'policy bypassed' : 'policy on';
    it(`edition page (${mode}) shows every vector as text`, async () => {
      await expectInert(
        async (page) => {
          await page.goto(site.url('/2026-05-11/index.html'));
          const text = (await page.locator('main').textContent()) ?? '';
          for (const vector of XSS_VECTORS.slice(0, 8)) expect(text).toContain(vector);
          expect(await page.locator('li.card').count()).toBe(8);
          // No hostile image URL is ever fetched or shown: images come only from the site's published copies.
          expect(await page.locator('img').count()).toBe(0);
        },
        bypassCSP,
        bypassCSP ? undefined : 'xss-edition-1280',
      );
    });

    it(`archive front page (${mode})`, async () => {
      await expectInert(async (page) => {
        await page.goto(site.url('/'));
        expect(await page.locator('.latest h2').textContent()).toBe(hostile.title);
      }, bypassCSP);
    });

    it(`search results (${mode})`, async () => {
      await expectInert(async (page) => {
        await page.goto(site.url('/search/index.html?q=item'));
        await expect.poll(() => page.locator('#search-results li').count()).toBe(8);
        expect(await page.locator('#search-results a').first().textContent()).toBe(hostile.items[0]!.title);
      }, bypassCSP);
    });

    it(`404 page (${mode})`, async () => {
      await expectInert(async (page) => {
        await page.goto(site.url('/%3Cscript%3Ealert(1)%3C/script%3E'));
        expect(await page.locator('h1').textContent()).toBe('Page not found');
      }, bypassCSP);
    });
  }

  const feedContents: [string, () => string][] = [
    ['RSS', () => xmlText(fs.text('/site/feed.xml'), 'content:encoded')],
    ['Atom', () => xmlText(fs.text('/site/atom.xml'), 'content')],
    ['JSON Feed', () => JSON.parse(fs.text('/site/feed.json')).items[0].content_html],
  ];
  for (const [name, content] of feedContents) {
    it(`${name} entry content rendered as HTML by a reader without any policy`, async () => {
      await expectInert(async (page) => {
        await page.setContent(`<!DOCTYPE html><html lang="en"><body>${content()}</body></html>`);
        expect(await page.locator('h2').count()).toBe(8);
        expect(await page.locator('body').textContent()).toContain(XSS_VECTORS[0]);
      }, true);
    });
  }

  for (const path of [
    '/feed.xml',
    '/atom.xml',
    '/feed.json',
    '/2026-05-11/edition.md',
    '/2026-05-11/edition.json',
  ]) {
    it(`${path} opened directly runs nothing`, async () => {
      await expectInert(async (page) => {
        await page.goto(site.url(path));
      }, true);
    });
  }
});

/** The first entry's `tag` text, read by linkedom's XML parser (not feedsmith). */
function xmlText(xml: string, tag: string): string {
  const document = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  const entry = document.querySelector('item, entry');
  return (entry?.getElementsByTagName(tag)[0]?.textContent ?? '').trim();
}
