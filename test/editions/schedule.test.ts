// The weekly job as a use case, on real parts: the sample week's recorded feeds on loopback, the real build, the
// real publish into a site folder, a loopback fake LLM that fails for the degraded case. A clean build with
// autoPublish is published (and handed to the send step); without autoPublish it waits as a draft; a degraded
// build is never published or sent, whatever the config says.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigest } from '../../src/compose/create-digest.js';
import { type ConfigInput, configSchema } from '../../src/config/config-schema.js';
import type { Logger } from '../../src/core/ports.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import {
  SAMPLE_WEEK,
  type SampleServer,
  sampleConfig,
  startSampleServer,
} from '../../src/sample/sample-week.js';
import type { Store } from '../../src/store/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (line) => lines.push(line), warn: (line) => lines.push(line), debug() {} };
}

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip)(`the scheduled edition (${kind})`, () => {
    const store = useTestStore(kind);
    let sample: SampleServer;
    let siteDir: string;

    beforeAll(async () => {
      sample = await startSampleServer();
    });
    afterAll(() => sample.close());

    function digestFor(store: Store, extra: Partial<ConfigInput>, env: NodeJS.ProcessEnv = {}) {
      const log = capture();
      const config = configSchema.parse({
        ...sampleConfig(sample.origin),
        itemsPerEdition: 4,
        publish: { baseUrl: 'https://digest.example.org/' },
        ...extra,
      });
      const http = createHttpClient({
        timeoutMs: 10_000,
        maxBytes: 5_000_000,
        retries: 0,
        allowLoopback: true,
        log,
      });
      const digest = createDigest({
        config,
        store,
        http,
        log,
        env,
        fs: nodeFileSystem,
        clock: { now: () => new Date(`${SAMPLE_WEEK}T07:00:05Z`) },
      });
      return { digest, log };
    }

    const withSite = async (fn: () => Promise<void>) => {
      siteDir = await mkdtemp(join(tmpdir(), 'digest-scheduled-site-'));
      try {
        await fn();
      } finally {
        await rm(siteDir, { recursive: true, force: true });
      }
    };

    it(
      'publishes a clean build at once with autoPublish, and hands it to the send step',
      () =>
        withSite(async () => {
          const { digest } = digestFor(store(), { schedule: { autoPublish: true } });
          const sent: string[] = [];
          const outcome = await digest.scheduledEdition({
            week: SAMPLE_WEEK,
            siteDir,
            offline: true,
            send: async (week) => {
              sent.push(week);
            },
          });
          expect(outcome).toMatchObject({ week: SAMPLE_WEEK, status: 'sent', items: 4 });
          expect(sent).toEqual([SAMPLE_WEEK]);
          expect((await store().editions.get(SAMPLE_WEEK))?.publishedAt).toBeTruthy();
          expect(existsSync(join(siteDir, SAMPLE_WEEK, 'index.html'))).toBe(true);
          expect(existsSync(join(siteDir, 'index.html'))).toBe(true);
        }),
      60_000,
    );

    it(
      'leaves a clean build as a draft awaiting approval without autoPublish, nothing in the site',
      () =>
        withSite(async () => {
          const { digest, log } = digestFor(store(), {});
          const outcome = await digest.scheduledEdition({ week: SAMPLE_WEEK, siteDir, offline: true });
          expect(outcome).toEqual({ week: SAMPLE_WEEK, status: 'draft', items: 4, reason: 'approval' });
          const edition = await store().editions.get(SAMPLE_WEEK);
          expect(edition?.items).toHaveLength(4);
          expect(edition?.publishedAt ?? null).toBeNull();
          // The draft's preview page never lands where readers are served.
          expect(existsSync(join(siteDir, SAMPLE_WEEK))).toBe(false);
          expect(log.lines.join('\n')).toMatch(/draft awaiting approval/);
        }),
      60_000,
    );

    it('never publishes or sends a degraded build (the LLM failed: exit 3 for the CLI), even with autoPublish', async () => {
      const fake: FakeLlm = await startFakeLlm({ script: () => ({ status: 500 }) });
      try {
        await withSite(async () => {
          const { digest, log } = digestFor(
            store(),
            { schedule: { autoPublish: true }, llm: { write: 'openai:gpt-4.1-mini', maxRetries: 0 } },
            { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL },
          );
          const sent: string[] = [];
          const outcome = await digest.scheduledEdition({
            week: SAMPLE_WEEK,
            siteDir,
            send: async (week) => {
              sent.push(week);
            },
          });
          expect(outcome).toMatchObject({ status: 'draft', reason: 'degraded' });
          expect(fake.requests.length).toBeGreaterThan(0);
          expect(sent).toEqual([]);
          expect((await store().editions.get(SAMPLE_WEEK))?.publishedAt ?? null).toBeNull();
          expect(existsSync(join(siteDir, 'index.html'))).toBe(false);
          expect(log.lines.join('\n')).toMatch(/built degraded .* not published or sent automatically/);
        });
      } finally {
        await fake.close();
      }
    }, 60_000);
  });
}
