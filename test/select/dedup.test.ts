// Dedup cases taken from real feeds read by the real adapters: the same paper from HF's API, the takara mirror
// of HF's list and an arXiv listing, and a blog post that links the paper it covers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { silentLogger } from '../../src/core/ports.js';
import type { SourceItem } from '../../src/core/types.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { dedupCandidates, jaccard, titleShingles } from '../../src/select/dedup.js';
import { planEdition } from '../../src/select/plan-edition.js';
import { feedSource } from '../../src/sources/feed.js';
import { hfDailyPapersSource } from '../../src/sources/hf-daily-papers.js';
import { hfDailyPapersRssSource } from '../../src/sources/hf-daily-papers-rss.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { policy, storedFrom, storedItem } from '../support/stored-items.js';

const http = createHttpClient({ timeoutMs: 5000, maxBytes: 10 * 1024 * 1024, retries: 0 });
const ROUTES: Record<string, [string, string, string]> = {
  '/hf-list.xml': ['seed-week-2026-05-04', 'hf-daily-rss-huangboming_2026-05-01.xml', 'application/rss+xml'],
  '/takara.xml': ['hf-daily-papers-rss', 'takara_papers_feed_2026-04-30.xml', 'application/rss+xml'],
  '/arxiv-0430.xml': ['arxiv-api', 'query_cs.LG_OR_cs.AI_20_2026-04-30.xml', 'application/atom+xml'],
  '/arxiv-0802.xml': ['arxiv-api', 'query_cs.AI_OR_cs.LG_OR_cs.CL_25_2026-08-02.xml', 'application/atom+xml'],
  '/bair.xml': ['ai-blogs', 'bair_blog_feed_2026-04-27_3items_reserialized.xml', 'application/rss+xml'],
};

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopback((request, response) => {
    if (request.path === '/api/daily_papers') {
      const body =
        request.query.get('date') === '2026-07-31'
          ? readFixture('real', 'hf-daily-papers', 'daily_papers_2026-07-31.json')
          : '[]';
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const route = ROUTES[request.path];
    if (!route) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': route[2] }).end(readFixture('real', route[0], route[1]));
  });
});
afterAll(() => server.close());

async function read(
  source: {
    fetch: typeof feedSource extends (...args: never[]) => infer S
      ? S extends { fetch: infer F }
        ? F
        : never
      : never;
  },
  week: string,
) {
  const result = await source.fetch({ window: editionWindow(week), http, state: {}, log: silentLogger });
  return result.items;
}

const find = (items: SourceItem[], arxivId: string) => {
  const item = items.find((entry) => entry.arxivId === arxivId);
  if (!item) throw new Error(`${arxivId} not in the feed`);
  return item;
};

describe('dedup on real feeds', () => {
  it("merges one paper seen on HF's list, the takara mirror and an arXiv listing into one item", async () => {
    const hf = find(
      await read(hfDailyPapersRssSource({ id: 'api-hf', url: server.url('/hf-list.xml') }), '2026-05-04'),
      '2604.26904',
    );
    const takara = find(
      await read(feedSource({ id: 'rss-takara', url: server.url('/takara.xml') }), '2026-05-04'),
      '2604.26904',
    );
    const listing = find(
      await read(feedSource({ id: 'rss-arxiv', url: server.url('/arxiv-0430.xml') }), '2026-05-04'),
      '2604.26904',
    );
    // As they would arrive when stored apart: the takara copy as a feed that does not know the mirror sees it
    // (no arXiv id, its own URL), so only its title ties it to the paper.
    const candidates = [
      storedFrom(takara, { arxivId: null, firstSeenAt: '2026-04-30T07:00:00Z' }),
      storedFrom(listing, { key: 'arxiv:2604.26904#listing', firstSeenAt: '2026-04-30T08:00:00Z' }),
      storedFrom(hf, { firstSeenAt: '2026-04-30T09:00:00Z' }),
    ];
    const { items, aliases } = dedupCandidates(candidates);
    expect(items).toHaveLength(1);
    const merged = items[0]!;
    expect(merged.arxivId).toBe('2604.26904');
    expect(merged.title).toBe('ClawGym: A Scalable Framework for Building Effective Claw Agents');
    expect(merged.sources.map((ref) => ref.sourceId).sort()).toEqual(['api-hf', 'rss-arxiv', 'rss-takara']);
    expect(merged.upvotes).toBe(hf.upvotes);
    expect(aliases.size).toBe(2);
  });

  it("merges HF's API entry and the arXiv listing entry despite LaTeX in one title", async () => {
    const hf = find(
      await read(hfDailyPapersSource({ id: 'api-hf', url: server.url('/api/daily_papers') }), '2026-08-03'),
      '2607.28582',
    );
    const listing = find(
      await read(feedSource({ id: 'rss-arxiv', url: server.url('/arxiv-0802.xml') }), '2026-08-03'),
      '2607.28582',
    );
    expect(hf.title).not.toBe(listing.title);
    expect(jaccard(titleShingles(hf.title), titleShingles(listing.title))).toBe(1);
    // Both are the paper's own page; the one stored first gives the primary source.
    const { items } = dedupCandidates([
      storedFrom(listing, { arxivId: null, key: 'url:listing', firstSeenAt: '2026-08-02T06:00:00Z' }),
      storedFrom(hf, { firstSeenAt: '2026-07-31T06:00:00Z' }),
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ primarySource: 'api-hf', title: hf.title, key: 'arxiv:2607.28582' });
    expect(items[0]!.sources.map((ref) => ref.sourceId)).toEqual(['api-hf', 'rss-arxiv']);
  });

  it('makes a blog post and the paper it links one item: the paper first, the post an extra source', async () => {
    const posts = await read(feedSource({ id: 'rss-bair', url: server.url('/bair.xml') }), '2026-01-12');
    const post = posts.find((item) => item.title === 'Information-Driven Design of Imaging Systems');
    expect(post?.text).toMatch(/NeurIPS 2025 paper/);
    // The post links https://arxiv.org/abs/2405.20559 in its HTML. The feed adapter reads ids from the plain
    // text only for now (reported), so the id the link carries is given here as enrichment or ingest would.
    // The paper's own entry is synthetic (no recorded listing holds it); the post is real.
    const paper = storedItem({
      key: 'arxiv:2405.20559',
      title: 'Information-driven design of imaging systems',
      authors: ['A. Author'],
      primarySource: 'rss-arxiv',
      firstSeenAt: '2026-04-28T00:00:00Z',
    });
    const { items } = dedupCandidates([
      storedFrom(post!, {
        key: `url:${post!.url}`,
        arxivId: '2405.20559',
        firstSeenAt: '2026-01-10T00:00:00Z',
      }),
      paper,
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      key: 'arxiv:2405.20559',
      primarySource: 'rss-arxiv',
      authors: ['A. Author'],
    });
    expect(items[0]!.sources.map((ref) => ref.sourceId)).toEqual(['rss-arxiv', 'rss-bair']);
    expect(items[0]!.sources[1]!.url).toBe(post!.url);
  });

  it('keeps different papers with look-alike titles apart', () => {
    const a = storedItem({ key: 'arxiv:2604.00001', title: 'Scaling Laws for Agent Benchmarks' });
    const b = storedItem({ key: 'arxiv:2604.00002', title: 'Scaling Laws for Agent Benchmarks' });
    const c = storedItem({
      key: 'url:https://example.com/x',
      title: 'Scaling laws for agent benchmarks, revisited with new data',
    });
    expect(dedupCandidates([a, b, c]).items).toHaveLength(3);
  });

  it('carries pins and earlier-edition exclusions across a merge', () => {
    const paper = storedItem({
      key: 'arxiv:2604.00003',
      title: 'A Study of Tool Calling Failures in Production Agents',
    });
    const post = storedItem({
      key: 'url:https://blog.example.com/tool-calling',
      title: 'A study of tool-calling failures in production agents',
      primarySource: 'rss-blog',
      arxivId: null,
    });
    const filler = Array.from({ length: 14 }, (_, index) =>
      storedItem({
        key: `arxiv:2604.1${String(index).padStart(4, '0')}`,
        title: `Unrelated paper ${index} about retrieval`,
      }),
    );
    const pinned = planEdition(
      [paper, post, ...filler],
      policy({ pinnedKeys: new Set([post.key]) }),
      '2026-05-04',
    );
    expect(pinned.picks[0]!.item.key).toBe(paper.key);
    expect(pinned.picks[0]!.pinned).toBe(true);
    const featured = planEdition(
      [paper, post, ...filler],
      policy({ excludeKeys: new Set([post.key]) }),
      '2026-05-04',
    );
    expect(featured.ranked.map((row) => row.item.key)).not.toContain(paper.key);
    expect(featured.excluded).toContainEqual({
      key: paper.key,
      reason: 'featured in an earlier published edition',
    });
  });
});
