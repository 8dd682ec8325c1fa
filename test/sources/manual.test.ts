import { afterEach, describe, expect, it } from 'vitest';
import { BlockedUrlError, SourceError } from '../../src/core/errors.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { fetchManualItem } from '../../src/sources/manual.js';
import { fetchPageMetadata, readPage } from '../../src/sources/page.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const ARXIV = readFixture('real', 'arxiv-api', 'query_all-transformer_AND_cat-cs.LG_5_2026-06-14.xml');
// synthetic: no saved HTML page exists among the recorded fixtures, so the test builds one
const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<title>Fallback title</title>
<meta property="og:title" content="Shipping evals &amp; guardrails">
<meta property="og:description" content="How we test an LLM feature before users do.">
<meta property="og:image" content="/img/cover.png">
<meta property="og:site_name" content="Example Eng">
<meta property="article:published_time" content="2026-05-01T09:30:00+02:00">
<link rel="canonical" href="https://blog.example.com/evals">
<script>window.track('x')</script><style>body{color:red}</style></head>
<body><nav>Home · About</nav><article><h1>Shipping evals</h1>
${'<p>Evals catch regressions before users see them, and they make model upgrades boring. We run them on every pull request with a fixed seed. </p>'.repeat(8)}
<p onclick="alert(1)">Read <a href="javascript:alert(1)">more</a>.</p></article></body></html>`;

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const loopbackHttp = () =>
  createHttpClient({ timeoutMs: 3000, maxBytes: 1024 * 1024, retries: 0, allowLoopback: true });

describe('page metadata', () => {
  it('reads og: meta, canonical link, readable text and a resolved image', () => {
    const page = readPage(PAGE, 'https://blog.example.com/evals?utm_source=x');
    expect(page).toMatchObject({
      url: 'https://blog.example.com/evals',
      title: 'Shipping evals & guardrails',
      description: 'How we test an LLM feature before users do.',
      image: 'https://blog.example.com/img/cover.png',
      siteName: 'Example Eng',
      publishedAt: '2026-05-01T07:30:00.000Z',
    });
    expect(page.text).toMatch(/^Evals catch regressions before users see them/);
    expect(page.text).not.toMatch(/window\.track|color:red|Home · About|<p/);
  });

  it('ignores a canonical link to another site', () => {
    expect(readPage(PAGE, 'https://www.attacker.example/copy').url).toBe('https://www.attacker.example/copy');
  });

  it('drops an og:image that is not http(s)', () => {
    const page = readPage(
      '<html><head><meta property="og:image" content="javascript:alert(1)"><title>T</title></head><body>x</body></html>',
      'https://a.example/',
    );
    expect(page.image).toBeNull();
    expect(page.title).toBe('T');
  });

  it('fetches untrusted: loopback is refused unless allowed', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    const strict = createHttpClient({ timeoutMs: 3000, maxBytes: 1024 * 1024, retries: 0 });
    await expect(fetchPageMetadata(server.url('/post'), { http: strict })).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
    expect(server.requests).toHaveLength(0);
    const page = await fetchPageMetadata(server.url('/post'), { http: loopbackHttp() });
    expect(page.title).toBe('Shipping evals & guardrails');
  });

  it('refuses a non-HTML answer', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
    });
    await expect(fetchPageMetadata(server.url('/paper.pdf'), { http: loopbackHttp() })).rejects.toThrow(
      /not an HTML page \(application\/pdf\)/,
    );
  });
});

describe('fetchManualItem', () => {
  it('reads an arXiv id through the arXiv API', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ARXIV);
    });
    const now = new Date('2026-06-12T10:00:00Z');
    const item = await fetchManualItem('arXiv:2606.13677v1', {
      http: loopbackHttp(),
      week: '2026-06-15',
      arxivApiUrl: server.url('/api/query'),
      now,
    });
    expect(server.requests[0]?.query.get('id_list')).toBe('2606.13677');
    expect(item).toMatchObject({
      sourceId: 'manual',
      url: 'https://arxiv.org/abs/2606.13677',
      title: 'Mana: Dexterous Manipulation of Articulated Tools',
      arxivId: '2606.13677',
      publishedAt: '2026-06-12T10:00:00.000Z',
    });
    expect(item.authors).toContain('Pieter Abbeel');
  });

  it('reads an HF papers URL as its arXiv id, stamped into a past week', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ARXIV);
    });
    const item = await fetchManualItem('https://huggingface.co/papers/2606.13677', {
      http: loopbackHttp(),
      week: '2026-05-04',
      arxivApiUrl: server.url('/api/query'),
      now: new Date('2026-06-12T10:00:00Z'),
    });
    expect(item.arxivId).toBe('2606.13677');
    expect(item.publishedAt).toBe('2026-05-04T00:00:00.000Z');
  });

  it('reads any other URL as a page', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    const item = await fetchManualItem(server.url('/evals'), { http: loopbackHttp(), week: '2026-05-04' });
    // the canonical link names another site, so the fetched address is kept
    expect(item).toMatchObject({
      sourceId: 'manual',
      url: server.url('/evals'),
      arxivId: null,
      publishedAt: '2026-05-01T07:30:00.000Z',
    });
    expect(item.image).toBe(server.url('/img/cover.png'));
  });

  it('refuses input that is neither', async () => {
    await expect(
      fetchManualItem('javascript:alert(1)', { http: loopbackHttp(), week: '2026-05-04' }),
    ).rejects.toBeInstanceOf(SourceError);
  });

  it('says when arXiv has no such paper', async () => {
    server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ARXIV);
    });
    await expect(
      fetchManualItem('2401.00001', {
        http: loopbackHttp(),
        week: '2026-05-04',
        arxivApiUrl: server.url('/q'),
      }),
    ).rejects.toThrow(/could not read arXiv 2401\.00001: arXiv has no entry/);
  });
});
