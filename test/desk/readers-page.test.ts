// The desk's readers page of a published edition: the clicked items with their counts and shares, the scanner's
// prefetches apart, the mails, the trend; plain-SVG bar charts that pass axe in real Chromium (the page served by
// the real app, through the browser's own request routing: no network).
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, openPage, runAxe } from '../support/browser.js';
import { useTestStore } from '../support/database.js';
import { chromiumPath, quickTier } from '../support/environment.js';
import { confirmedReaders, mailEdition } from '../support/mailed-readers.js';
import { type Browserish, createDeskHarness, type DeskHarness, signIn, WEEK, XSS } from './_desk.js';

describe("the desk's readers page", () => {
  const store = useTestStore();
  let harness: DeskHarness;
  let client: Browserish;
  let keys: string[];

  beforeEach(async () => {
    harness = await createDeskHarness(store());
    client = await signIn(harness.app);
    const edition = (await store().editions.get(WEEK))!;
    keys = edition.items.map((item) => item.key);
  });
  afterEach(() => harness.close());

  async function publishWithClicks(): Promise<void> {
    await store().editions.markPublished(WEEK, '2026-05-04T09:00:00.000Z');
    // Two readers clicked the first item and one the third; a scanner fetched every link once.
    await store().clicks.add(
      keys.map((itemKey, index) => ({
        edition: WEEK,
        revision: 1,
        itemKey,
        channel: 'mail' as const,
        day: WEEK,
        clicks: index === 0 ? 2 : index === 2 ? 1 : 0,
        prefetched: 1,
      })),
      [],
    );
  }

  it('is not there for a draft', async () => {
    expect((await client.get(`/admin/week/${WEEK}/readers`)).status).toBe(404);
    expect(await (await client.get(`/admin/week/${WEEK}`)).text()).not.toContain('What readers did');
  });

  it('shows each item with its clicks and share, the prefetches apart, escaped, and the board links to it', async () => {
    await publishWithClicks();
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(`href="/admin/week/${WEEK}/readers"`);
    const response = await client.get(`/admin/week/${WEEK}/readers`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('<strong>3</strong> click(s) by readers');
    expect(page).toContain(`${keys.length} prefetch(es)`);
    const rows = [
      ...page.matchAll(
        /<tr><td>(\d+)<\/td><th scope="row">.*?<\/th><td>(\d+)<\/td><td>(\d+%)<\/td><td>(\d+)<\/td><\/tr>/g,
      ),
    ];
    expect(rows.map((row) => [row[1], row[2], row[3], row[4]])).toEqual(
      keys.map((_, index) => [
        String(index + 1),
        ...(index === 0 ? ['2', '67%'] : index === 2 ? ['1', '33%'] : ['0', '0%']),
        '1',
      ]),
    );
    expect(page).toContain('role="img" aria-labelledby="items-chart-title"');
    expect(page).not.toContain(XSS);
    expect(page).toContain('<tbody><tr><td>0</td><td>0</td><td>0</td><td>0</td></tr></tbody>');
  });

  it('shows a complaint apart from the unsubscribes, in the mail table, the trend table and the chart text', async () => {
    await publishWithClicks();
    const [ada, bob] = await confirmedReaders(store(), ['ada', 'bob', 'cy']);
    await mailEdition(store(), WEEK);
    await store().subscribers.recordComplaint(ada!.id);
    await store().subscribers.setStatus(bob!.id, 'unsubscribed', ['confirmed']);
    const page = await (await client.get(`/admin/week/${WEEK}/readers`)).text();
    expect(page).toContain('<th scope="col">Complaints</th><th scope="col">Unsubscribes</th></tr></thead>');
    // Mails sent, bounces, complaints, unsubscribes.
    expect(page).toContain('<tbody><tr><td>3</td><td>0</td><td>1</td><td>1</td></tr></tbody>');
    expect(page).toMatch(
      new RegExp(
        `<th scope="row"><a [^>]*>${WEEK}</a></th><td>3</td><td>3</td><td>1</td><td>\\d+</td><td>0</td><td>1</td><td>1</td></tr>`,
      ),
    );
    expect(page).toContain(
      `${WEEK}: 3 click(s), 3 mail(s), 0 bounce(s), 1 complaint(s), 1 unsubscribe(s)</title>`,
    );
    expect(page).not.toContain('ada@example.com');
  });

  // Chromium is the whole tier's (`npm run test:all`); the quick tier checks the page's HTML above.
  describe.skipIf(!chromiumPath() || quickTier())('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(() => browser?.close());

    it('renders the bar charts and passes axe', async () => {
      await publishWithClicks();
      const origin = 'http://desk.test';
      const opened = await openPage(browser, { width: 1280, bypassCSP: true });
      await opened.context.route(`${origin}/**`, async (route) => {
        const url = new URL(route.request().url());
        const answer = await client.get(`${url.pathname}${url.search}`);
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          headers[name] = value;
        });
        await route.fulfill({
          status: answer.status,
          headers,
          body: Buffer.from(await answer.arrayBuffer()),
        });
      });
      try {
        await opened.page.goto(`${origin}/admin/week/${WEEK}/readers`);
        const bars = opened.page.locator('svg.chart').first().locator('rect');
        expect(await bars.count()).toBe(keys.length);
        const widths = await bars.evaluateAll((rects) =>
          rects.map((rect) => Number(rect.getAttribute('width'))),
        );
        expect(widths[0]).toBeGreaterThan(widths[2]!);
        expect(widths[1]).toBe(0);
        const serious = (await runAxe(opened.page)).filter(
          (violation) => violation.impact === 'serious' || violation.impact === 'critical',
        );
        expect(serious, JSON.stringify(serious, null, 1)).toEqual([]);
        expect(await opened.violations()).toEqual([]);
      } finally {
        await opened.context.close();
      }
    });
  });
});
