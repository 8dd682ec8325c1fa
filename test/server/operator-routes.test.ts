// The operator's JSON (GET /operator/stats) and the click counters on /metrics, on the service `digest serve` is
// made of: behind the metrics token (never the peer's address alone), counts only, bad input named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigest } from '../../src/compose/create-digest.js';
import type { DigestService } from '../../src/compose/service.js';
import { parseConfig } from '../../src/config/load-config.js';
import type { EditionStats } from '../../src/editions/index.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { confirmedReaders, mailEdition } from '../support/mailed-readers.js';
import { BASE_URL, DRAFT_DATE, publishArchive } from '../support/published-archive.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const TOKEN = 'operator-token-from-the-environment';

describe('GET /operator/stats and the click counters on /metrics', () => {
  let store: Store;
  let site: TempSite;
  let service: DigestService;
  let newest = '';
  const from = (headers: Record<string, string> = {}) => ({
    headers: { 'x-forwarded-for': '203.0.113.9', ...headers },
  });
  const withToken = from({ authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    store = await createTestStore();
    const editions = await publishArchive(store);
    const edition = editions.at(-1)!;
    newest = edition.date;
    await store.clicks.add(
      edition.items.map((item, index) => ({
        edition: newest,
        revision: 1,
        itemKey: item.key,
        channel: 'mail' as const,
        day: newest,
        clicks: index < 2 ? 2 - index : 0,
        prefetched: 1,
      })),
      [],
    );
    // Three readers mailed; ada complains through her provider, bob unsubscribes.
    const [ada, bob] = await confirmedReaders(store, ['ada', 'bob', 'cy']);
    await mailEdition(store, newest);
    await store.subscribers.recordComplaint(ada!.id);
    await store.subscribers.setStatus(bob!.id, 'unsubscribed', ['confirmed']);
    site = await publishTempSite();
    const digest = createDigest({
      config: parseConfig({
        name: 'Operator Digest',
        publish: { baseUrl: BASE_URL },
        server: { trustProxy: true, metricsTokenEnv: 'TEST_METRICS_TOKEN' },
      }),
      store,
      http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0 }),
      clock: { now: () => new Date('2026-05-05T09:00:00Z') },
      log: { info: () => {}, warn: () => {}, debug: () => {} },
      fs: nodeFileSystem,
      env: { DIGEST_SECRET: 'a-test-secret-of-at-least-32-bytes-long!', TEST_METRICS_TOKEN: TOKEN },
    });
    service = await digest.service({ siteDir: site.dir, requestLog: () => {} });
  });
  afterAll(async () => {
    await store?.close();
    await site?.remove();
  });

  it('refuses a request without the token', async () => {
    const refused = await service.app.request('/operator/stats', from());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('serves the newest published edition, or the week asked for, as the stats the CLI prints', async () => {
    const answer = await service.app.request('/operator/stats', withToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const stats = (await answer.json()) as EditionStats;
    expect(stats).toMatchObject({ edition: newest, clicks: 3 });
    expect(stats.items.slice(0, 2).map((item) => [item.clicks, item.share])).toEqual([
      [2, 0.667],
      [1, 0.333],
    ]);
    // The complaint counts once, as a complaint, not among the unsubscribes.
    expect(stats.mail).toMatchObject({ sent: 3, bounced: 0, complained: 1, unsubscribed: 1 });
    expect(stats.trend[0]).toMatchObject({ edition: newest, sent: 3, complained: 1, unsubscribed: 1 });
    expect(JSON.stringify(stats)).not.toMatch(/@example\.com/);
    const asked = await service.app.request(`/operator/stats?week=${newest}`, withToken);
    expect(((await asked.json()) as EditionStats).edition).toBe(newest);
  });

  it('names a bad week (400) and says when the week has no published edition (404)', async () => {
    const bad = await service.app.request('/operator/stats?week=2026-02-30', withToken);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: 'week' });
    const draft = await service.app.request(`/operator/stats?week=${DRAFT_DATE}`, withToken);
    expect(draft.status).toBe(404);
  });

  it('puts the clicks and the prefetches, apart, and the complaints on /metrics', async () => {
    const scraped = await (await service.app.request('/metrics', withToken)).text();
    expect(scraped).toContain('digest_link_clicks{kind="click"} 3');
    const items = (await store.editions.get(newest))!.items.length;
    expect(scraped).toContain(`digest_link_clicks{kind="prefetched"} ${items}`);
    expect(scraped).toContain('\ndigest_reader_complaints 1\n');
  });
});
