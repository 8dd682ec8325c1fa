// `digest publish` with counted links (analytics.site) and the subscribe form written into the pages: the files it
// writes are read back. Edition pages, live and earlier revisions, link their items through /r/ naming the revision
// the page shows; the front page links no items; the feeds keep the items' own links; "off" keeps plain links. The
// form written at publish time says how clicks are counted, as the one `digest serve` fills into the slot does.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsMode } from '../../src/config/analytics-schema.js';
import { parseConfig } from '../../src/config/load-config.js';
import { fillSubscribeSlot } from '../../src/publish/subscribe-slot.js';
import type { Store } from '../../src/store/types.js';
import { createClickTokens } from '../../src/subscribers/click-tokens.js';
import { createDeskHarness, type DeskHarness, EDITOR, WEEK } from '../desk/_desk.js';
import { createTestStore } from '../support/database.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
const PER_READER_SENTENCE =
  'Clicks on links in the mail are counted per reader; you can turn that off on your preferences page.';
/** The same with analytics.site: the pages' links are counted too, naming nobody. */
const PER_READER_AND_SITE_SENTENCE =
  'Clicks on links in the mail are counted per reader, those on this site without naming anyone; you can turn that off on your preferences page.';
const SERVICE = 'https://service.example/';

/** A harness whose edition is published, then corrected once (revision 2 live, revision 1 at `<date>-r1/`). */
async function correctedSite(store: Store, config: Record<string, unknown>): Promise<DeskHarness> {
  const harness = await createDeskHarness(store, { env: { DIGEST_SECRET: SECRET }, config });
  await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false, allowFlagged: true });
  const draft = await harness.digest.correctionDraft(WEEK);
  draft.items[0]!.summary = 'A corrected summary.';
  await harness.digest.correct({
    week: WEEK,
    reason: 'A figure was wrong',
    editor: EDITOR.email,
    corrected: draft,
    outDir: harness.siteDir,
  });
  return harness;
}

const tokensIn = (page: string) =>
  [...page.matchAll(/href="https:\/\/service\.example\/r\/([^"]+)"/g)].map((match) => match[1]!);

describe('digest publish with analytics.site, per-reader, the form written in', () => {
  let store: Store;
  let harness: DeskHarness;
  let itemUrls: string[];
  const read = (...path: string[]) => readFile(join(harness.siteDir, ...path), 'utf8');

  beforeAll(async () => {
    store = await createTestStore();
    harness = await correctedSite(store, {
      analytics: { mode: 'per-reader', site: true },
      server: { baseUrl: SERVICE, subscribeForm: true },
    });
    itemUrls = (await store.editions.get(WEEK))!.items.flatMap((item) => (item.url ? [item.url] : []));
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  it('the live page and the earlier revision page link each item through /r/, naming their own revision', async () => {
    const read_ = createClickTokens(Buffer.from(SECRET)).read;
    expect(itemUrls.length).toBeGreaterThan(0);
    for (const [path, revision] of [
      [WEEK, 2],
      [`${WEEK}-r1`, 1],
    ] as const) {
      const page = await read(path, 'index.html');
      const tokens = tokensIn(page);
      expect(new Set(tokens).size).toBe(itemUrls.length);
      for (const token of tokens) {
        expect(read_(token)).toMatchObject({ edition: WEEK, revision, channel: 'site', subscriberId: null });
      }
      // The item's own link is counted; an arXiv reference beside it (`arXiv:ID`) is a citation, left as it is.
      for (const url of itemUrls)
        expect(page.split(`href="${url}"`).length).toBe(page.split(`href="${url}">arXiv:`).length);
    }
  });

  it('the front page links no item; the feeds keep the items own links', async () => {
    const front = await read('index.html');
    expect(front).not.toContain('/r/');
    for (const url of itemUrls) expect(front).not.toContain(`href="${url}"`);
    for (const feed of ['feed.xml', 'atom.xml', 'feed.json']) {
      const text = await read(feed);
      expect(text).not.toContain(`${SERVICE}r/`);
      expect(text).toContain(itemUrls[0]!);
    }
  });

  it('the subscribe form written into every page says clicks are counted per reader, and on the site', async () => {
    for (const path of ['index.html', `${WEEK}/index.html`, 'search/index.html', '404.html']) {
      const page = await read(path);
      expect(page).toContain('<form class="search-form" method="post"');
      expect(page).toContain(`<p class="click-note">${PER_READER_AND_SITE_SENTENCE}</p>`);
    }
  });
});

describe('digest publish: mode off keeps plain links; the slot digest serve fills says how clicks are counted', () => {
  let store: Store;
  let harness: DeskHarness;

  beforeAll(async () => {
    store = await createTestStore();
    harness = await correctedSite(store, {
      analytics: { mode: 'off', site: true },
      server: { baseUrl: SERVICE },
    });
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  it('off with site: the live page and the earlier revision keep the items own links', async () => {
    const urls = (await store.editions.get(WEEK))!.items.flatMap((item) => (item.url ? [item.url] : []));
    for (const path of [WEEK, `${WEEK}-r1`]) {
      const page = await readFile(join(harness.siteDir, path, 'index.html'), 'utf8');
      expect(page).not.toContain('/r/');
      expect(page).toContain(`href="${urls[0]}"`);
    }
  });

  it('the form unset: the slot `digest serve` fills says per reader in that mode, nothing of clicks when off', async () => {
    const front = await readFile(join(harness.siteDir, 'index.html'), 'utf8');
    expect(front).toContain('<!--digest:subscribe root=""-->');
    const fill = (analytics: string) =>
      fillSubscribeSlot(front, 'Test Digest', {
        clicks: analyticsMode(parseConfig({ analytics, server: { baseUrl: SERVICE } })),
      });
    expect(fill('per-reader')).toContain(`<p class="click-note">${PER_READER_SENTENCE}</p>`);
    expect(fill('off')).toContain('<form class="search-form" method="post"');
    expect(fill('off')).not.toContain('click-note');
  });
});
