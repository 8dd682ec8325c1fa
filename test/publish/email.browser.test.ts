// The email in real Chromium at phone (375 px) and desktop-client (600 px) widths: text, layout, axe, hostile fields.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/publish/email-files.js';
import { launchChromium, openPage, runAxe, saveScreenshot } from '../support/browser.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import { referenceEdition } from '../support/reference-edition.js';
import { publishedImages } from './_images.js';
import { liveMarkup, XSS_VECTORS, xssEdition } from './_xss-edition.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium)
  announceSkip('publish/email.browser', 'Chromium not found at /usr/bin/chromium (set CHROMIUM_PATH)');

const OPTIONS = {
  baseUrl: 'https://digest.example.org/',
  email: {
    from: 'LLM News Digest <digest@example.org>',
    to: ['readers@example.org'],
    unsubscribeUrl: 'https://example.com/u?t={{t}}',
  },
};

describe.skipIf(!hasChromium)('email in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const width of [375, 600]) {
    it(`renders at ${width} px with every item, nothing wider than the screen, and no axe violations`, async () => {
      const edition = referenceEdition();
      const { html } = await renderEmail(edition, { ...OPTIONS, images: publishedImages([edition]) });
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, { width, bypassCSP: true });
        try {
          await page.emulateMedia({ colorScheme });
          await page.setContent(html, { waitUntil: 'load' });
          const text = (await page.locator('body').textContent()) ?? '';
          for (const item of edition.items) {
            expect(text).toContain(item.title);
            for (const takeaway of item.takeaways) expect(text).toContain(takeaway);
          }
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          const widths = await page
            .locator('img')
            .evaluateAll((images) =>
              images.map((image) => (image as HTMLImageElement).getBoundingClientRect().width),
            );
          expect(widths).toHaveLength(9);
          for (const imageWidth of widths) expect(imageWidth).toBeLessThanOrEqual(Math.min(width, 528));
          expect(await runAxe(page), `${width} px ${colorScheme}`).toEqual([]);
          await saveScreenshot(page, `email-${width}-${colorScheme}`);
        } finally {
          await context.close();
        }
      }
    });
  }

  it('keeps hostile fields as text: no dialog, no script, no live markup', async () => {
    const { html } = await renderEmail(xssEdition(), OPTIONS);
    const opened = await openPage(browser, { width: 600, bypassCSP: true });
    try {
      await opened.page.setContent(html, { waitUntil: 'load' });
      await opened.page.mouse.move(300, 400);
      expect(opened.dialogs).toEqual([]);
      expect(await opened.scriptRan()).toBe(false);
      expect(await opened.page.evaluate(`(${liveMarkup.toString()})(document)`)).toEqual([]);
      const text = (await opened.page.locator('body').textContent()) ?? '';
      for (const vector of XSS_VECTORS.slice(0, 8)) expect(text).toContain(vector);
      await saveScreenshot(opened.page, 'xss-email-600');
    } finally {
      await opened.context.close();
    }
  });
});
