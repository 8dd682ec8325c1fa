import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { silentLogger } from '../../src/core/ports.js';
import { createSource } from '../../src/sources/index.js';
import { seedWeekPicks } from '../support/fixtures.js';
import type { LoopbackServer } from '../support/loopback.js';
import { startFixtureFolderServer, startSeedWeekServer } from './_servers.js';
import { testHttp } from './contract.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PICKED = seedWeekPicks();

describe('hf-daily-papers-rss', () => {
  it('reads the seed week: one capture per list day, 118 distinct papers stamped with their list day', async () => {
    server = await startSeedWeekServer();
    const source = createSource({
      id: 'hf-rss',
      type: 'hf-daily-papers-rss',
      url: server.url('/hf-daily/{date}.xml'),
      weight: 1,
      enabled: true,
    });
    const result = await source.fetch({
      window: editionWindow('2026-05-04'),
      http: testHttp(),
      state: {},
      log: silentLogger,
    });
    // Days are fetched a few at a time, so they arrive in any order.
    expect(server.requests.map((r) => r.path).sort()).toEqual(
      ['2026-04-28', '2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04'].map(
        (d) => `/hf-daily/${d}.xml`,
      ),
    );
    expect(result.error).toBeUndefined();
    expect(result.warnings).toEqual([]);
    expect(result.items).toHaveLength(118);
    const ids = result.items.map((item) => item.arxivId);
    for (const id of PICKED) expect(ids).toContain(id);
    // capture 2026-04-29 holds the list of April 28; its first item's pubDate (Mar 27) is the paper's own date
    const first = result.items.find((item) => item.arxivId === '2604.16391')!;
    expect(first).toMatchObject({
      url: 'https://arxiv.org/abs/2604.16391',
      title: 'Disentangled Robot Learning via Separate Forward and Inverse Dynamics Pretraining',
      image: 'https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/2604.16391.png',
      publishedAt: '2026-04-28T00:00:00.000Z',
      upvotes: 1,
    });
    expect(first.authors).toEqual([
      'Wenyao Zhang',
      'Bozhou Zhang',
      'Zekun Qi',
      'Wenjun Zeng',
      'Xin Jin',
      'Li Zhang',
    ]);
    expect(first.text).toMatch(/^Vision-language-action \(VLA\) models have shown great potential/);
    expect(first.text).not.toMatch(/Authors:|Upvotes:|Summary:/);
    // Friday's list repeats over the weekend: the paper keeps Friday as its day
    const friday = result.items.find((item) => item.arxivId === '2604.24902')!;
    expect(friday.publishedAt).toBe('2026-05-01T00:00:00.000Z');
  });

  it('turns a missing day into a warning and all days missing into an error', async () => {
    server = await startSeedWeekServer();
    const source = createSource({
      id: 'hf-rss',
      type: 'hf-daily-papers-rss',
      url: server.url('/hf-daily/{date}.xml'),
      weight: 1,
      enabled: true,
    });
    const edge = await source.fetch({
      window: { start: '2026-05-04', end: '2026-05-05' },
      http: testHttp(),
      state: {},
      log: silentLogger,
    });
    expect(edge.items).toHaveLength(21);
    expect(edge.warnings).toEqual([expect.stringMatching(/^2026-05-05: no list published \(HTTP 404/)]);
    expect(edge.error).toBeUndefined();
    const none = await source.fetch({
      window: { start: '2026-06-01', end: '2026-06-02' },
      http: testHttp(),
      state: {},
      log: silentLogger,
    });
    expect(none.items).toEqual([]);
    expect(none.error).toMatch(/all 2 days failed/);
  });

  it('reads a single-capture mirror (no {date}) stamped with its build day', async () => {
    server = await startFixtureFolderServer('hf-daily-papers-rss');
    const source = createSource({
      id: 'takara',
      type: 'hf-daily-papers-rss',
      url: server.url('/takara_papers_feed_2026-04-30.xml'),
      weight: 1,
      enabled: true,
    });
    const result = await source.fetch({
      window: editionWindow('2026-05-04'),
      http: testHttp(),
      state: {},
      log: silentLogger,
    });
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(50);
    expect(result.items[0]).toMatchObject({
      url: 'https://arxiv.org/abs/2604.26238',
      arxivId: '2604.26238',
      title: 'EnerGS: Energy-Based Gaussian Splatting with Partial Geometric Priors',
      publishedAt: '2026-04-30T00:00:00.000Z',
      authors: [],
      upvotes: null,
    });
    expect(result.items[0]?.text).toMatch(/^3D Gaussian Splatting \(3DGS\) has been widely adopted/);
  });
});
