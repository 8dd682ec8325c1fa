// One guard, every door: against a published edition every path that could change it (the build with each of its
// flags, pin, skip and add, each desk action, the translations page, approve, the scheduled run) refuses before any
// work, and not one byte of the stored edition, the site (pages and feeds) or the JSON API's answer changes. The
// edition is published and mailed first; a draft build of the next week goes to the drafts, never the site. A week
// mailed but never published is frozen too (edition-guard.process.test.ts).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishedEditionError } from '../../src/core/errors.js';
import { swapFolders } from '../../src/publish/site-swap.js';
import { createServerApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import {
  createDeskHarness,
  type DeskHarness,
  rebuildOffline,
  signIn,
  WEEK,
  weekItems,
} from '../desk/_desk.js';
import { createTestStore } from '../support/database.js';
import { filesOf } from '../support/site-tree.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

describe('the edition guard', () => {
  let testStore: Store;
  const store = () => testStore;
  let harness: DeskHarness;
  let smtp: TestSmtpServer;
  let snapshot: () => Promise<unknown>;
  let before: unknown;

  beforeAll(async () => {
    testStore = await createTestStore();
    smtp = await startSmtpServer();
    harness = await createDeskHarness(store(), {
      languages: ['en', 'de'],
      email: {
        from: 'Test Digest <digest@example.org>',
        smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
        send: { messagesPerSecond: 1000, retryDelayMs: 20, timeoutMs: 2000 },
      },
      env: { DIGEST_SECRET: 'a-test-secret-of-at-least-32-bytes-long!' },
    });
    await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false, allowFlagged: true });
    await store().subscribers.put('reader@example.org', 'reader@example.org', 'confirmed');
    const sent = await harness.digest.send({ week: WEEK, allowFlagged: true });
    expect(sent.counts).toMatchObject({ sent: 1, failed: 0 });
    const api = createServerApp({
      site: { dir: harness.siteDir },
      health: { checkDatabase: async () => {} },
      useCases: { archive: { archive: await harness.digest.archive() } },
      log: () => {},
    });
    snapshot = async () => ({
      edition: await store().editions.get(WEEK),
      translations: await store().translations.list(WEEK),
      site: Object.fromEntries(await filesOf(harness.siteDir)),
      api: await (await api.request(`/api/v1/editions/${WEEK}`)).text(),
      apiList: await (await api.request('/api/v1/editions')).text(),
    });
    before = await snapshot();
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await testStore?.close();
  });

  const build = (flags: Partial<Parameters<DeskHarness['digest']['build']>[0]>) => () =>
    rebuildOffline(harness, flags);

  /** Use cases the CLI commands run: each throws the guard's error, naming the correction command. */
  const cliDoors: [string, () => Promise<unknown>, boolean][] = [
    ['digest build --offline', build({}), true],
    ['digest build --no-ingest', build({ offline: false }), true],
    ['digest build --refresh', build({ refresh: true }), false],
    ['digest build --retry-failed', build({ llm: { retryFailed: true } }), false],
    ['digest build --model', build({ llm: { model: 'openai:gpt-4.1-mini' } }), false],
    ['digest build (ingest)', build({ offline: false, ingest: true }), true],
    [
      'digest pin',
      () =>
        firstKey().then((item) => harness.digest.decide({ week: WEEK, item, decision: 'pin', undo: false })),
      false,
    ],
    [
      'digest skip',
      () =>
        firstKey().then((item) => harness.digest.decide({ week: WEEK, item, decision: 'skip', undo: false })),
      false,
    ],
    [
      'digest add',
      () => firstKey().then((input) => harness.digest.add({ week: WEEK, input, note: null })),
      false,
    ],
  ];
  const firstKey = async () => (await store().editions.get(WEEK))!.items[0]!.key;

  for (const [name, run, unchanged] of cliDoors) {
    it(`${name}: refused before any work, nothing changed`, async () => {
      const error = await run().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(PublishedEditionError);
      expect((error as PublishedEditionError).unchanged).toBe(unchanged);
      expect((error as Error).message).toContain(`digest correct --week ${WEEK} --reason`);
      if (unchanged) expect((error as Error).message).toContain('already published');
      expect(await snapshot()).toEqual(before);
    });
  }

  /** The desk's actions through its routes: each answers 409 with a way to start a correction. */
  const deskDoors: [string, string, (keys: string[]) => Record<string, string>][] = [
    ['rebuild', '/rebuild', () => ({})],
    ['pin', '/decide', ([key]) => ({ action: 'pin', key: key! })],
    ['skip', '/decide', ([key]) => ({ action: 'skip', key: key! })],
    ['swap', '/decide', ([key, other]) => ({ action: 'swap', key: key!, with: other! })],
    ['move down', '/decide', ([key]) => ({ action: 'down', key: key! })],
    ['reorder', '/decide', (keys) => ({ action: 'order', key: '', order: [...keys].reverse().join('\n') })],
    ['count', '/count', () => ({ count: '2' })],
    ['add', '/add', () => ({ input: 'https://example.com/a-post' })],
    [
      'edit',
      '/edit',
      ([key]) => ({
        key: key!,
        version: '0',
        summary: 'An edited summary.',
        takeaway1: 'a',
        takeaway2: 'b',
        takeaway3: 'c',
        level: 'Advanced',
      }),
    ],
    ['revert', '/revert', ([key]) => ({ key: key!, field: 'summary', version: '1' })],
    ['regenerate', '/regenerate', ([key]) => ({ key: key!, writer: 'extractive' })],
    ['translation', '/translation', () => ({ language: 'de', title: 'Titel', intro: 'Einleitung' })],
    ['approve', '/approve', () => ({})],
  ];

  for (const [name, path, fields] of deskDoors) {
    it(`the desk's ${name}: 409 with a correction offered, nothing changed`, async () => {
      const client = await signIn(harness.app);
      const keys = (await store().editions.get(WEEK))!.items.map((item) => item.key);
      const response = await client.post(`/admin/week/${WEEK}${path}`, fields(keys));
      const html = await response.text();
      expect(response.status, html).toBe(409);
      expect(html).toContain('digest correct --week');
      expect(await snapshot()).toEqual(before);
    });
  }

  it('the scheduled run: refused, nothing built or written', async () => {
    const outcome = await harness.digest.scheduledEdition({
      week: WEEK,
      siteDir: harness.siteDir,
      offline: true,
    });
    expect(outcome).toEqual({ week: WEEK, status: 'frozen', items: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it("a draft build of the next week writes the drafts' folder, never the site", async () => {
    const next = '2026-05-11';
    await store().items.upsert(
      weekItems(4).map((item, index) => ({
        ...item,
        url: `https://arxiv.org/abs/2605.2000${index}`,
        arxivId: `2605.2000${index}`,
        title: `Next week's paper ${index + 1} on agents`,
        publishedAt: '2026-05-07T08:00:00Z',
      })),
    );
    const built = await rebuildOffline(harness, { week: next });
    expect(built.pagePath).toBe(join(harness.draftDir, next, 'index.html'));
    expect(await readFile(built.pagePath, 'utf8')).toContain('Next week&#39;s paper');
    // Pointed at the live site by mistake, the build refuses before any work.
    // Or at a folder in it (the published week's own, a new one), or in its generations: all the live site.
    const { generations } = swapFolders(harness.siteDir);
    for (const outDir of [
      harness.siteDir,
      join(harness.siteDir, WEEK),
      join(harness.siteDir, 'leak'),
      join(harness.siteDir, 'leak', 'deeper'),
      generations,
      join(generations, '000001', 'leak'),
    ]) {
      await expect(rebuildOffline(harness, { week: next, outDir }), outDir).rejects.toThrow(
        /is in the published site/,
      );
    }
    expect(await snapshot()).toEqual(before);
    expect(existsSync(join(harness.siteDir, 'leak'))).toBe(false);
  });
});
