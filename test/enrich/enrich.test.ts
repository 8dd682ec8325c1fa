import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { silentLogger } from '../../src/core/ports.js';
import type { SourceItem } from '../../src/core/types.js';
import { enrichItems } from '../../src/enrich/index.js';
import { hfThumbnailUrl } from '../../src/enrich/patches.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { parseArxivAtom } from '../../src/sources/arxiv-api.js';
import { hfDailyPapersRssSource } from '../../src/sources/hf-daily-papers-rss.js';
import type { Store } from '../../src/store/types.js';
import { useTestStore } from '../support/database.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback, staticRoutes } from '../support/loopback.js';
import { type ServiceOptions, startServices } from './_services.js';

const WEEK = '2026-05-04';
const ARXIV_FILE = 'query_cs.LG_OR_cs.AI_20_2026-04-30.xml';
/** Papers of the real takara mirror capture that the real arXiv API answer also holds. */
const SHARED_IDS = ['2604.26881', '2604.26904', '2604.26919', '2604.26932'];
const arxivEntries = parseArxivAtom(readFixture('real', 'arxiv-api', ARXIV_FILE).toString('utf8')).entries;

// Loopback servers are allowed by the client here (allowLoopback) because post pages are untrusted URLs.
const http = createHttpClient({
  timeoutMs: 5000,
  maxBytes: 5 * 1024 * 1024,
  retries: 0,
  allowLoopback: true,
});
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The real takara capture read by the real adapter, cut to the papers the arXiv answer knows. */
async function takaraItems(): Promise<SourceItem[]> {
  const feed = await startLoopback(
    staticRoutes({
      '/feed.xml': {
        body: readFixture('real', 'hf-daily-papers-rss', 'takara_papers_feed_2026-04-30.xml'),
        type: 'application/rss+xml',
      },
    }),
  );
  servers.push(feed);
  const result = await hfDailyPapersRssSource({ id: 'rss-takara', url: feed.url('/feed.xml') }).fetch({
    window: editionWindow(WEEK),
    http,
    state: {},
    log: silentLogger,
  });
  return result.items.filter((item) => item.arxivId && SHARED_IDS.includes(item.arxivId));
}

// Synthetic page, built here: no recorded HTML page of a post is in the fixtures.
const POST_HTML = `<!doctype html><html><head><title>Claw agents in practice</title>
<meta property="og:image" content="/images/claw.png"></head><body><article><h1>Claw agents in practice</h1>
${'<p>We tried the new Claw-style agent framework on our internal workflows and wrote down what broke. </p>'.repeat(8)}
<p>The paper is arXiv:2604.26932 and the code is public.</p></article></body></html>`;

async function setUp(store: Store, options: ServiceOptions) {
  const services = await startServices({ arxivFile: ARXIV_FILE, pages: { '/post': POST_HTML }, ...options });
  servers.push(services);
  const takara = await takaraItems();
  const post: SourceItem = {
    sourceId: 'rss-blog',
    url: services.url('/post'),
    title: 'Claw agents in practice',
    text: 'Short feed summary.',
    authors: [],
    arxivId: null,
    image: null,
    publishedAt: '2026-05-01T09:00:00.000Z',
    upvotes: null,
  };
  // Synthetic HF-listed paper without an image (HF lists carry upvotes): it should get HF's thumbnail.
  const listed: SourceItem = {
    ...takara[0]!,
    sourceId: 'api-hf',
    url: 'https://arxiv.org/abs/2604.26942',
    arxivId: '2604.26942',
    upvotes: 4,
    image: null,
  };
  await store.items.upsert([...takara, post, listed]);
  const candidates = await store.items.candidates(editionWindow(WEEK));
  const context = {
    http,
    store,
    log: silentLogger,
    config: {
      arxivApiUrl: services.url('/api/query'),
      semanticScholarUrl: services.url('/graph/v1'),
      arxivPauseMs: 0,
    },
    env: { SEMANTIC_SCHOLAR_API_KEY: 'test-key' },
  };
  return { services, candidates, context, postUrl: post.url };
}

describe('enrichItems', () => {
  const store = useTestStore();

  it('fills authors from arXiv, counts citations (0 included), images and post text, and saves them', async () => {
    const { services, candidates, context, postUrl } = await setUp(store(), {
      citations: { '2604.26904': 12, '2604.26881': 0 },
    });
    const { items, warnings } = await enrichItems(candidates, context);
    expect(warnings).toEqual([]);
    const byId = new Map(items.map((item) => [item.arxivId, item]));

    const clawGym = byId.get('2604.26904')!;
    expect(clawGym.authors).toEqual(arxivEntries.find((entry) => entry.arxivId === '2604.26904')!.authors);
    expect(clawGym.authors.length).toBeGreaterThan(0);
    expect(clawGym.citations).toBe(12);
    expect(byId.get('2604.26881')!.citations).toBe(0);
    expect(byId.get('2604.26919')!.citations).toBeNull();
    expect(byId.get('2604.26942')!.image).toBe(hfThumbnailUrl('2604.26942'));

    const post = items.find((item) => item.url === postUrl)!;
    expect(post.image).toBe(services.url('/images/claw.png'));
    expect(post.text).toMatch(/wrote down what broke/);
    expect(post.arxivId).toBe('2604.26932');

    const saved = await store().items.get(clawGym.key);
    expect(saved?.citations).toBe(12);
    expect(saved?.authors).toEqual(clawGym.authors);
    expect((await store().items.get(byId.get('2604.26881')!.key))?.citations).toBe(0);

    const batch = services.requests.find((request) => request.path === '/graph/v1/paper/batch')!;
    expect(batch.query.get('fields')).toMatch(/citationCount/);
    expect(batch.headers['x-api-key']).toBe('test-key');
    expect((JSON.parse(batch.body) as { ids: string[] }).ids).toEqual(
      ['2604.26881', '2604.26904', '2604.26919', '2604.26932', '2604.26942'].map((id) => `ARXIV:${id}`),
    );
    const query = services.requests.find((request) => request.path === '/api/query')!;
    expect(query.query.get('id_list')?.split(',')).toContain('2604.26932');
  });

  it('keeps going when the citation service fails: citations stay null, a warning says why', async () => {
    const { candidates, context } = await setUp(store(), { citationStatus: 500 });
    const { items, warnings } = await enrichItems(candidates, context);
    expect(items).toHaveLength(candidates.length);
    expect(items.every((item) => item.citations === null)).toBe(true);
    expect(warnings.join('\n')).toMatch(/citations: Semantic Scholar lookup failed.*500/);
    // arXiv metadata still arrived.
    expect(items.find((item) => item.arxivId === '2604.26904')!.authors.length).toBeGreaterThan(0);
  });

  it('answers a second run from the cache without calling any service', async () => {
    const { services, candidates, context } = await setUp(store(), { citations: { '2604.26904': 3 } });
    await enrichItems(candidates, context);
    const calls = services.requests.length;
    const again = await enrichItems(candidates, context);
    expect(services.requests.length).toBe(calls);
    expect(again.items.find((item) => item.arxivId === '2604.26904')!.citations).toBe(3);
    expect(
      again.items.find(
        (item) => item.arxivId === '2604.26932' && item.sources.some((ref) => ref.sourceId === 'rss-blog'),
      ),
    ).toBeTruthy();
  });

  it('reads the older arXiv serialisation too and warns about ids arXiv does not know', async () => {
    const services = await startServices({
      arxivFile: 'query_cat-cs.RO_AND_neural_2_oldformat_2025-10-17.xml',
      citations: {},
    });
    servers.push(services);
    const item: SourceItem = {
      sourceId: 'rss-arxiv',
      url: 'https://arxiv.org/abs/2510.14968',
      title: 'RDD',
      text: '',
      authors: [],
      arxivId: '2510.14968',
      image: null,
      publishedAt: '2026-05-02T00:00:00.000Z',
      upvotes: null,
    };
    await store().items.upsert([
      item,
      { ...item, url: 'https://arxiv.org/abs/2604.99999', arxivId: '2604.99999', title: 'Unknown' },
    ]);
    const candidates = await store().items.candidates(editionWindow(WEEK));
    const { items, warnings } = await enrichItems(candidates, {
      http,
      store: store(),
      log: silentLogger,
      config: {
        arxivApiUrl: services.url('/api/query'),
        semanticScholarUrl: services.url('/graph/v1'),
        arxivPauseMs: 0,
      },
      env: {},
    });
    const rdd = items.find((entry) => entry.arxivId === '2510.14968')!;
    expect(rdd.authors).toEqual(['Mingxuan Yan', 'Yuping Wang', 'Zechun Liu', 'Jiachen Li']);
    expect(rdd.text).toMatch(/^To tackle long-horizon tasks/);
    expect(warnings.join('\n')).toMatch(/2604\.99999/);
    const batch = services.requests.find((request) => request.path === '/graph/v1/paper/batch')!;
    expect(batch.headers['x-api-key']).toBeUndefined();
  });
});
