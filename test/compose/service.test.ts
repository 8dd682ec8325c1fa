// The composition root's service (`digest serve` is made of nothing else): the app, its metrics and health, the
// archive, the desk and the subscriber routes wired from the config and the store once; the server gets use cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigest } from '../../src/compose/create-digest.js';
import type { DigestService } from '../../src/compose/service.js';
import { parseConfig } from '../../src/config/load-config.js';
import type { DigestDeps } from '../../src/deps.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { siteContentSecurityPolicy } from '../../src/publish/site-policy.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { BASE_URL, publishArchive } from '../support/published-archive.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const METRICS_TOKEN = 'metrics-token-from-the-environment';
const silent = { info: () => {}, warn: () => {}, debug: () => {} };

function deps(store: Store): DigestDeps {
  return {
    config: parseConfig({
      name: 'Root Digest',
      publish: { baseUrl: BASE_URL },
      server: { trustProxy: true, apiPerMinute: 2, metricsTokenEnv: 'TEST_METRICS_TOKEN' },
    }),
    store,
    http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0 }),
    clock: { now: () => new Date('2026-05-05T09:00:00Z') },
    log: silent,
    fs: nodeFileSystem,
    env: { DIGEST_SECRET: 'a-test-secret-of-at-least-32-bytes-long!', TEST_METRICS_TOKEN: METRICS_TOKEN },
  };
}

describe('the root service', () => {
  let store: Store;
  let site: TempSite;
  let service: DigestService;
  const from = (ip: string, headers: Record<string, string> = {}) => ({
    headers: { 'x-forwarded-for': ip, ...headers },
  });

  beforeAll(async () => {
    store = await createTestStore();
    await publishArchive(store);
    await store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    site = await publishTempSite();
    service = await createDigest(deps(store)).service({ siteDir: site.dir, requestLog: () => {} });
  });
  afterAll(async () => {
    await store?.close();
    await site?.remove();
  });

  it('hands out use cases, not the ports it was built from', () => {
    const digest = createDigest(deps(store));
    expect(Object.keys(digest)).not.toContain('deps');
    expect(Object.values(digest)).not.toContain(store);
  });

  it('serves the site under the site policy, and health from the store', async () => {
    const front = await service.app.request('/');
    expect(front.status).toBe(200);
    expect(front.headers.get('content-security-policy')).toBe(siteContentSecurityPolicy());
    const health = await service.app.request('/healthz');
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers /metrics to the token the config names in the environment, with the store behind its gauges', async () => {
    expect((await service.app.request('/metrics', from('203.0.113.9'))).status).toBe(401);
    const scraped = await service.app.request(
      '/metrics',
      from('203.0.113.9', { authorization: `Bearer ${METRICS_TOKEN}` }),
    );
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('digest_subscribers{status="confirmed"} 1');
  });

  it('wires the archive API with the config limit, the desk and the subscriber routes', async () => {
    const listed = await service.app.request('/api/v1/editions', from('198.51.100.7'));
    expect(((await listed.json()) as { total: number }).total).toBe(3);
    await service.app.request('/api/v1/editions', from('198.51.100.7'));
    expect((await service.app.request('/api/v1/editions', from('198.51.100.7'))).status).toBe(429);
    expect((await service.app.request('/admin/login')).status).toBe(200);
    // A base URL and no SMTP server: the route is there, and says subscribing is not set up.
    const subscribe = await service.app.request('/subscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(BASE_URL).origin },
      body: JSON.stringify({ email: 'grace@example.com' }),
    });
    expect(subscribe.status).toBe(503);
  });

  it('listens on loopback, says where, and closes', async () => {
    const announced: string[] = [];
    const running = await service.listen({ host: '127.0.0.1', port: 0 }, (url) => announced.push(url));
    expect(announced).toEqual([running.url]);
    expect((await fetch(new URL('/healthz', running.url))).status).toBe(200);
    await running.close();
    await expect(fetch(new URL('/healthz', running.url))).rejects.toThrow();
  });

  it('shows when the last scheduled backup worked on /metrics (schedule.backup), and /healthz stays ok', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runBackupSlot } = await import('../../src/backup/index.js');
    const dir = await mkdtemp(join(tmpdir(), 'digest-service-backups-'));
    const backupStore = await createTestStore();
    try {
      const base = deps(backupStore);
      const withBackups = {
        ...base,
        config: {
          ...base.config,
          schedule: { ...base.config.schedule, backup: { cron: '0 3 * * *', keep: 2, dir } },
        },
      };
      const backed = await createDigest(withBackups).service({ siteDir: site.dir, requestLog: () => {} });
      const scrape = async () =>
        (
          await backed.app.request(
            '/metrics',
            from('203.0.113.9', { authorization: `Bearer ${METRICS_TOKEN}` }),
          )
        ).text();
      expect(await scrape()).toContain('digest_backup_last_success_timestamp 0');
      const slot = new Date('2026-05-05T03:00:00Z');
      expect(
        await runBackupSlot({ store: backupStore, clock: base.clock, log: silent }, { dir, keep: 2 }, slot),
      ).toBe('done');
      expect(await scrape()).toContain(
        `digest_backup_last_success_timestamp ${Date.parse('2026-05-05T09:00:00Z') / 1000}`,
      );
      expect(await (await backed.app.request('/healthz')).json()).toEqual({ status: 'ok', database: 'ok' });
    } finally {
      await backupStore.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports the database unreachable when its store is closed', async () => {
    const closed = await createTestStore();
    const broken = await createDigest(deps(closed)).service({ siteDir: site.dir, requestLog: () => {} });
    await closed.close();
    const health = await broken.app.request('/healthz');
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'error', database: 'unreachable' });
  });
});
