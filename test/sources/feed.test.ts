import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { type SourceState, silentLogger } from '../../src/core/ports.js';
import type { DateWindow } from '../../src/core/types.js';
import { authorNames } from '../../src/sources/_feed-items.js';
import { createSource } from '../../src/sources/index.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackHandler, type LoopbackServer, startLoopback } from '../support/loopback.js';
import { startFixtureFolderServer } from './_servers.js';
import { TAG, testHttp } from './contract.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WIDE: DateWindow = { start: '2010-01-01', end: '2026-12-31' };

async function fetchFeed(url: string, window: DateWindow, state: SourceState = {}) {
  const source = createSource({ id: 'rss-x', type: 'feed', url, weight: 1, enabled: true });
  return source.fetch({ window, http: testHttp(), state, log: silentLogger });
}

async function serveFeed(handler: LoopbackHandler) {
  server = await startLoopback(handler);
  return server;
}

/** Real feed fixtures: folder, file, items in the wide window. */
const REAL: [string, string, number][] = [
  ['openai', 'openai_news_rss_2026-08-01_reserialized.xml', 5],
  ['openai', 'openai_news_rss_2026-08-20_first6.xml', 6],
  ['simonwillison', 'atom_everything_2026-06-25.xml', 30],
  ['simonwillison', 'atom_everything_2026-07-19.xml', 30],
  ['simonwillison', 'atom_everything_2026-08-22.xml', 30],
  ['substack', 'interconnects.ai_feed_2026-08-02.xml', 20],
  ['ai-blogs', 'anthropic_engineering_olshansk_full_2026-08-22.xml', 25],
  ['ai-blogs', 'anthropic_news_olshansk_mirror_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'anthropic_research_olshansk_full_2026-08-22.xml', 17],
  ['ai-blogs', 'bair_blog_feed_2026-04-27_3items_reserialized.xml', 3],
  ['ai-blogs', 'chip_huyen_feed_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'claude_code_releases_atom_2026-08-20_first6.xml', 6],
  ['ai-blogs', 'deepmind_blog_rss_2026-08-20_first6.xml', 6],
  ['ai-blogs', 'google_ai_blog_rss_2026-08-20_first6.xml', 6],
  ['ai-blogs', 'huggingface_blog_feed_2026-08-20_first6.xml', 6],
  ['ai-blogs', 'lilianweng_index_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'meta_ai_olshansk_mirror_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'openai_research_olshansk_full_2026-08-22.xml', 194],
  ['ai-blogs', 'the_batch_olshansk_mirror_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'the_gradient_rss_2026-04-27_3items_reserialized.xml', 3],
  ['ai-blogs', 'together_ai_blog_rss_2026-08-20_first4.xml', 4],
  ['ai-blogs', 'verge_ai_rss_2026-08-20_first4.xml', 4],
  ['arxiv-rss', 'rss.arxiv.org_atom_cs.AI_2025-08-20_7entries_trimmed.xml', 7],
  ['arxiv-rss', 'rss.arxiv.org_rss_cs.AI_2026-04-27_3items_reserialized.xml', 3],
  ['arxiv-rss', 'rss.arxiv.org_rss_cs.CL_2026-04-27_3items_reserialized.xml', 3],
  ['arxiv-rss', 'rss.arxiv.org_rss_cs.CL_weekend_empty_2026-08-01.xml', 0],
  ['hf-daily-papers-rss', 'takara_papers_feed_2026-04-30.xml', 50],
];

describe('feed source on real feeds', () => {
  it.each(REAL)('%s/%s', async (folder, file, count) => {
    const s = await startFixtureFolderServer(folder);
    server = s;
    const result = await fetchFeed(s.url(`/${file}`), WIDE);
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(count);
    for (const item of result.items) {
      expect(item.url).toMatch(/^https?:\/\/[^/]+/);
      expect(item.title).not.toBe('');
      expect(item.title).not.toMatch(TAG);
      // no tag check on text here: some posts show HTML source as text (the contract checks real markup is gone)
      expect(item.text).not.toMatch(/\s{2,}/);
      expect(Date.parse(item.publishedAt)).not.toBeNaN();
    }
  });

  it('skips items outside the window (simonwillison.net, week ending 2026-08-22)', async () => {
    server = await startFixtureFolderServer('simonwillison');
    const window = editionWindow('2026-08-22');
    const result = await fetchFeed(server.url('/atom_everything_2026-08-22.xml'), window);
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.length).toBeLessThan(30);
    expect(
      result.items.every((item) => item.publishedAt >= '2026-08-16' && item.publishedAt < '2026-08-23'),
    ).toBe(true);
    expect(result.items[0]?.authors).toEqual(['Simon Willison']);
  });

  it('records arXiv ids and strips the listing prefix (rss.arxiv.org)', async () => {
    server = await startFixtureFolderServer('arxiv-rss');
    const result = await fetchFeed(
      server.url('/rss.arxiv.org_rss_cs.AI_2026-04-27_3items_reserialized.xml'),
      WIDE,
    );
    expect(result.items[0]).toMatchObject({ arxivId: '2604.21935', url: 'https://arxiv.org/abs/2604.21935' });
    expect(result.items[0]?.title).toBe(
      'Math Takes Two: A test for emergent mathematical reasoning in communication',
    );
    expect(result.items[0]?.text).not.toMatch(/^arXiv:|Announce Type/);
    expect(result.items[0]?.authors.length).toBeGreaterThan(0);
  });

  it('splits the comma-separated author list of an arXiv listing into one name per author', async () => {
    server = await startFixtureFolderServer('arxiv-rss');
    const rss = await fetchFeed(
      server.url('/rss.arxiv.org_rss_cs.CL_2026-04-27_3items_reserialized.xml'),
      WIDE,
    );
    const paper = rss.items.find((item) => item.arxivId === '2604.22002');
    // <dc:creator>Anamta Khan, Ratna Kandala, Deepti, Sheza Munir, Joyojeet Pal</dc:creator>
    expect(paper?.authors).toEqual(['Anamta Khan', 'Ratna Kandala', 'Deepti', 'Sheza Munir', 'Joyojeet Pal']);
    const atom = await fetchFeed(
      server.url('/rss.arxiv.org_atom_cs.AI_2025-08-20_7entries_trimmed.xml'),
      WIDE,
    );
    expect(atom.items.find((item) => item.arxivId === '2508.13428')?.authors).toEqual([
      'Hao Zhang',
      'Chen Li',
      'Basura Fernando',
    ]);
    expect(atom.items.find((item) => item.arxivId === '2508.13435')?.authors).toEqual(['Some Author']);
  });

  it('keeps one author written "Last, First" whole', () => {
    expect(authorNames(['Doe, Jane'])).toEqual(['Doe, Jane']);
    expect(authorNames(['Smith, J.'])).toEqual(['Smith, J.']);
    expect(authorNames(['Jane Doe, Bob Roe'])).toEqual(['Jane Doe', 'Bob Roe']);
  });

  it('reads Substack content:encoded, dc:creator and images', async () => {
    server = await startFixtureFolderServer('substack');
    const result = await fetchFeed(server.url('/interconnects.ai_feed_2026-08-02.xml'), WIDE);
    const first = result.items[0]!;
    expect(first.title).toMatch(/^Latest open artifacts \(#23\)/);
    expect(first.authors).toEqual(['Florian Brand']);
    expect(first.image).toMatch(/^https:\/\//);
    expect(first.text.length).toBeGreaterThan(1000);
  });
});

describe('feed source on bad and hostile input', () => {
  it('never makes an item of a javascript: or data: link, nor an image of one', async () => {
    // synthetic: a hostile feed built for this test
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://site.example/</link>
      <item><title>bad</title><link>javascript:alert(1)</link><pubDate>Mon, 04 May 2026 10:00:00 GMT</pubDate></item>
      <item><title>data</title><link>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</link><pubDate>Mon, 04 May 2026 10:00:00 GMT</pubDate></item>
      <item><title>ok &lt;script&gt;alert(2)&lt;/script&gt;</title><link>/posts/ok</link><pubDate>Mon, 04 May 2026 10:00:00 GMT</pubDate>
        <description>&lt;img src="javascript:alert(3)"&gt;&lt;p onclick="alert(4)"&gt;Fine &lt;a href="javascript:alert(5)"&gt;text&lt;/a&gt;&lt;script&gt;alert(6)&lt;/script&gt;&lt;/p&gt;</description></item>
    </channel></rss>`;
    const s = await serveFeed((_, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss);
    });
    const result = await fetchFeed(s.url('/feed'), editionWindow('2026-05-04'));
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      url: 'https://site.example/posts/ok',
      title: 'ok',
      text: 'Fine text',
      image: null,
    });
    expect(result.warnings).toEqual(['skipped 2 entries: no http(s) link']);
  });

  it('resolves relative links through xml:base (root, feed and entry level)', async () => {
    // synthetic: xml:base chains as feedparser's tests describe them, with entries that have dates and titles
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example/blog/"><title>t</title><id>x</id><updated>2026-05-04T00:00:00Z</updated>
      <entry><title>one</title><id>1</id><link href="posts/1"/><updated>2026-05-04T00:00:00Z</updated></entry>
      <entry xml:base="https://other.example/"><title>two</title><id>2</id><link href="x/2"/><updated>2026-05-04T00:00:00Z</updated></entry></feed>`;
    const rss = `<rss version="2.0" xml:base="https://rss.example/news/"><channel><title>t</title><link>/</link>
      <item><title>three</title><link>3.html</link><pubDate>Mon, 04 May 2026 10:00:00 GMT</pubDate></item></channel></rss>`;
    const s = await serveFeed((request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(request.path === '/atom' ? atom : rss);
    });
    const window = editionWindow('2026-05-04');
    expect((await fetchFeed(s.url('/atom'), window)).items.map((i) => i.url)).toEqual([
      'https://base.example/blog/posts/1',
      'https://other.example/x/2',
    ]);
    expect((await fetchFeed(s.url('/rss'), window)).items.map((i) => i.url)).toEqual([
      'https://rss.example/news/3.html',
    ]);
  });

  it('decodes by the HTTP charset when the document says nothing', async () => {
    // synthetic: windows-1251 bytes without a declaration, labelled by the server
    const body = Buffer.from(
      '<rss version="2.0"><channel><title>x</title><item><title>Привет, мир</title><link>https://a.example/1</link><pubDate>2026-05-04</pubDate></item></channel></rss>',
    );
    const { encode } = await import('iconv-lite');
    const s = await serveFeed((_, response) => {
      response
        .writeHead(200, { 'content-type': 'text/xml; charset=windows-1251' })
        .end(encode(body.toString(), 'windows-1251'));
    });
    const result = await fetchFeed(s.url('/feed'), editionWindow('2026-05-04'));
    expect(result.items[0]?.title).toBe('Привет, мир');
  });

  it('reads a JSON Feed', async () => {
    // synthetic: no JSON Feed was found among the recorded fixtures
    const feed = {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      home_page_url: 'https://j.example/',
      items: [
        {
          id: '1',
          url: '/a',
          title: 'A post',
          content_html: '<p>Hello <b>world</b></p>',
          date_published: '2026-05-03T08:00:00Z',
          authors: [{ name: 'Ann' }],
          image: '/a.png',
        },
      ],
    };
    const s = await serveFeed((_, response) => {
      response.writeHead(200, { 'content-type': 'application/feed+json' }).end(JSON.stringify(feed));
    });
    const result = await fetchFeed(s.url('/feed.json'), editionWindow('2026-05-04'));
    expect(result.items).toEqual([
      expect.objectContaining({
        url: 'https://j.example/a',
        title: 'A post',
        text: 'Hello world',
        authors: ['Ann'],
        image: 'https://j.example/a.png',
      }),
    ]);
  });

  it('reports a dead feed as an error, not a throw', async () => {
    const s = await serveFeed((_, response) => {
      response.writeHead(404).end();
    });
    const result = await fetchFeed(s.url('/gone.xml'), WIDE);
    expect(result.items).toEqual([]);
    expect(result.error).toMatch(/HTTP 404 .*check the URL/);
  });

  it('uses conditional GET: 304 yields no items and keeps the validators', async () => {
    const body = readFixture('real', 'openai', 'openai_news_rss_2026-08-20_first6.xml');
    const s = await serveFeed((request, response) => {
      if (request.headers['if-modified-since'] === 'Thu, 20 Aug 2026 10:00:00 GMT')
        response.writeHead(304).end();
      else
        response
          .writeHead(200, {
            'content-type': 'application/rss+xml',
            'last-modified': 'Thu, 20 Aug 2026 10:00:00 GMT',
          })
          .end(body);
    });
    const url = s.url('/rss.xml');
    const first = await fetchFeed(url, WIDE);
    expect(first.items).toHaveLength(6);
    expect(first.state).toEqual({
      [url]: { etag: null, lastModified: 'Thu, 20 Aug 2026 10:00:00 GMT', window: WIDE },
    });
    const second = await fetchFeed(url, WIDE, first.state);
    expect(s.requests).toHaveLength(2);
    expect(second).toEqual({ items: [], warnings: [], state: first.state, notModified: true });
  });

  it('fetches one capture per day when the URL has {date}', async () => {
    const body = readFixture(
      'real',
      'arxiv-rss',
      'rss.arxiv.org_rss_cs.AI_2026-04-27_3items_reserialized.xml',
    );
    const s = await serveFeed((request, response) => {
      if (request.path === '/archive/2026-04-27.xml')
        response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
      else response.writeHead(404).end();
    });
    const result = await fetchFeed(s.url('/archive/{date}.xml'), { start: '2026-04-26', end: '2026-04-28' });
    expect(s.requests.map((r) => r.path)).toEqual([
      '/archive/2026-04-26.xml',
      '/archive/2026-04-27.xml',
      '/archive/2026-04-28.xml',
    ]);
    expect(result.items).toHaveLength(3);
    expect(result.warnings).toHaveLength(2);
    expect(result.error).toBeUndefined();
  });
});
