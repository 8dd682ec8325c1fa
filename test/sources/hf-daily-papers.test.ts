import { afterEach, describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { type SourceState, silentLogger } from '../../src/core/ports.js';
import type { DateWindow } from '../../src/core/types.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { createSource } from '../../src/sources/index.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackHandler, type LoopbackServer, startLoopback } from '../support/loopback.js';
import { startHfApiServer } from './_servers.js';

const JUNE_12 = readFixture('real', 'hf-daily-papers', 'daily_papers_2026-06-12.json');
const ONE_DAY: DateWindow = { start: '2026-06-12', end: '2026-06-12' };
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fetchHf(
  handler: LoopbackHandler,
  window: DateWindow,
  options: { timeoutMs?: number; retries?: number; state?: SourceState; waits?: number[] } = {},
) {
  server = await startLoopback(handler);
  const http = createHttpClient({
    timeoutMs: options.timeoutMs ?? 3000,
    maxBytes: 2 * 1024 * 1024,
    retries: options.retries ?? 2,
    backoff: {
      sleep: async (ms) => {
        options.waits?.push(ms);
      },
    },
  });
  const source = createSource({
    id: 'api-hf',
    type: 'hf-daily-papers',
    url: server.url('/api/daily_papers'),
    weight: 1,
    enabled: true,
  });
  return source.fetch({ window, http, state: options.state ?? {}, log: silentLogger });
}

const json =
  (body: string | Buffer, status = 200): LoopbackHandler =>
  (_, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  };

describe('hf-daily-papers', () => {
  it('reads a recorded day: arXiv ids, links, authors, upvotes, thumbnails, list-day stamp', async () => {
    const result = await fetchHf(json(JUNE_12), ONE_DAY);
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(30);
    const raw = JSON.parse(JUNE_12.toString('utf8')) as {
      paper: { id: string; upvotes: number; authors: { name: string }[] };
      thumbnail?: string;
    }[];
    const first = result.items[0]!;
    expect(first.arxivId).toBe(raw[0]!.paper.id);
    expect(first.url).toBe(`https://arxiv.org/abs/${raw[0]!.paper.id}`);
    expect(first.upvotes).toBe(raw[0]!.paper.upvotes);
    expect(first.authors).toEqual(raw[0]!.paper.authors.map((a) => a.name));
    expect(first.image).toMatch(
      /^https:\/\/cdn-thumbnails\.huggingface\.co\/social-thumbnails\/papers\/.+\.png$/,
    );
    expect(first.text.length).toBeGreaterThan(200);
    expect(result.items.every((item) => item.publishedAt === '2026-06-12T00:00:00.000Z')).toBe(true);
    expect(server!.requests[0]?.query.get('date')).toBe('2026-06-12');
  });

  it('asks for every day of the window; an empty array is a normal day', async () => {
    server = await startHfApiServer();
    const http = createHttpClient({ timeoutMs: 3000, maxBytes: 2 * 1024 * 1024, retries: 0 });
    const source = createSource({
      id: 'api-hf',
      type: 'hf-daily-papers',
      url: server.url('/api/daily_papers'),
      weight: 1,
      enabled: true,
    });
    const result = await source.fetch({
      window: editionWindow('2026-06-14'),
      http,
      state: {},
      log: silentLogger,
    });
    // Days are fetched a few at a time, so they arrive in any order.
    expect(server.requests.map((r) => r.query.get('date')).sort()).toEqual([
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-13',
      '2026-06-14',
    ]);
    expect(result.items).toHaveLength(30);
    expect(result.warnings).toEqual([]);
    expect(result.error).toBeUndefined();
  });

  it('builds the thumbnail URL when the entry has none (pretty-printed fixture)', async () => {
    const entries = JSON.parse(
      readFixture('real', 'hf-daily-papers', 'daily_papers_2026-07-31_first5_pretty.json').toString('utf8'),
    ) as Record<string, unknown>[];
    // synthetic: the recorded entries with the top-level thumbnail removed
    const stripped = entries.map(({ thumbnail: _, ...rest }) => rest);
    const result = await fetchHf(json(JSON.stringify(stripped)), { start: '2026-07-31', end: '2026-07-31' });
    expect(result.items).toHaveLength(5);
    for (const item of result.items) {
      expect(item.image).toBe(
        `https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/${item.arxivId}.png`,
      );
    }
  });

  it('keeps the code repository HF lists (githubRepo), only as an https://github.com/<owner>/<repo> URL', async () => {
    const raw = JSON.parse(JUNE_12.toString('utf8')) as { paper: { id: string; githubRepo?: string } }[];
    const result = await fetchHf(json(JUNE_12), ONE_DAY);
    const listed = raw.filter((entry) => entry.paper.githubRepo);
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.length).toBeLessThan(raw.length);
    expect(result.items.map((item) => item.githubRepo ?? null)).toEqual(
      raw.map((entry) => entry.paper.githubRepo ?? null),
    );
    await server?.close();
    // synthetic: one recorded entry with githubRepo values HF could send or a hostile feed could
    const entry = raw[1]!;
    const variants: [unknown, string | null][] = [
      ['https://github.com/FrontisAI/OpenRSI', 'https://github.com/FrontisAI/OpenRSI'],
      ['https://github.com/FrontisAI/OpenRSI.git/', 'https://github.com/FrontisAI/OpenRSI'],
      ['http://github.com/FrontisAI/OpenRSI', null],
      ['https://github.com.evil.example/FrontisAI/OpenRSI', null],
      ['https://user:pw@github.com/FrontisAI/OpenRSI', null],
      ['https://github.com/FrontisAI', null],
      ['https://github.com/FrontisAI/OpenRSI/tree/main?x=1', null],
      ['javascript:alert(1)//https://github.com/a/b', null],
      ['', null],
      [42, null],
      [null, null],
    ];
    const body = JSON.stringify(
      variants.map(([githubRepo], index) => ({
        ...entry,
        paper: { ...entry.paper, id: `2606.${String(10000 + index)}`, githubRepo },
      })),
    );
    const odd = await fetchHf(json(body), ONE_DAY);
    expect(odd.warnings).toEqual([]);
    expect(odd.items.map((item) => item.githubRepo ?? null)).toEqual(variants.map(([, kept]) => kept));
  });

  it('retries a 500, then reports the day as a warning; all days bad is an error', async () => {
    const waits: number[] = [];
    const result = await fetchHf(
      (_, response) => {
        response.writeHead(500).end('Internal Server Error');
      },
      ONE_DAY,
      { waits },
    );
    expect(server!.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(result.items).toEqual([]);
    expect(result.warnings[0]).toMatch(/^2026-06-12: HTTP 500 .* after 3 attempts/);
    expect(result.error).toMatch(/all 1 days failed/);
  });

  it('keeps the good days when one day fails', async () => {
    const result = await fetchHf(
      (request, response) => {
        if (request.query.get('date') === '2026-06-11') response.writeHead(503).end();
        else
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(request.query.get('date') === '2026-06-12' ? JUNE_12 : '[]');
      },
      { start: '2026-06-10', end: '2026-06-12' },
      { retries: 0 },
    );
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(30);
    expect(result.warnings).toEqual([expect.stringMatching(/^2026-06-11: HTTP 503/)]);
  });

  it('honours Retry-After on a 429 and succeeds on the second request', async () => {
    const waits: number[] = [];
    const result = await fetchHf(
      (_, response) => {
        if (server!.requests.length === 1) response.writeHead(429, { 'retry-after': '1' }).end();
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JUNE_12);
      },
      ONE_DAY,
      { waits },
    );
    expect(server!.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
    expect(result.items).toHaveLength(30);
    expect(result.warnings).toEqual([]);
  });

  it('times out a hanging day and says so', async () => {
    const result = await fetchHf(() => {}, ONE_DAY, { timeoutMs: 100, retries: 0 });
    expect(result.warnings[0]).toMatch(/^2026-06-12: no answer .* within 100 ms/);
    expect(result.error).toBeDefined();
  });

  it('reports an HTML page instead of JSON', async () => {
    const result = await fetchHf((_, response) => {
      // synthetic: what a login wall or a wrong URL returns
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html><head><title>Hugging Face</title></head><body>Papers</body></html>');
    }, ONE_DAY);
    expect(result.warnings[0]).toMatch(/^2026-06-12: not JSON \(text\/html, starts "<!doctype html>/);
    expect(result.warnings[0]).toMatch(/api\/daily_papers/);
  });

  it('aborts a 50 MB body without buffering it', async () => {
    const chunk = Buffer.alloc(256 * 1024, 32);
    let sent = 0;
    const before = process.memoryUsage().rss;
    const result = await fetchHf((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      pump();
    }, ONE_DAY);
    expect(result.warnings[0]).toMatch(/^2026-06-12: response larger than 2097152 bytes/);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('reports JSON of the wrong shape', async () => {
    const object = await fetchHf(json('{"error":"Invalid date"}'), ONE_DAY);
    expect(object.warnings[0]).toMatch(/expected a JSON array of papers, got object/);
    await server?.close();
    server = undefined;
    const entries = await fetchHf(json('[{"paper":{"title":"no id"}},{"foo":1}]'), ONE_DAY);
    expect(entries.warnings[0]).toMatch(/none of the 2 entries has the expected shape \(paper\.id:/);
    expect(entries.error).toBeDefined();
  });

  it('skips single bad entries with a warning and keeps the rest', async () => {
    const entries = JSON.parse(JUNE_12.toString('utf8')) as unknown[];
    // synthetic: one recorded entry replaced by junk
    entries[3] = { paper: { id: 42 } };
    const result = await fetchHf(json(JSON.stringify(entries)), ONE_DAY);
    expect(result.items).toHaveLength(29);
    expect(result.warnings).toEqual([
      expect.stringMatching(/2026-06-12: skipped 1 entries of the wrong shape \(paper\.id/),
    ]);
  });

  it('keeps validators per URL and returns nothing new on 304', async () => {
    const handler: LoopbackHandler = (request, response) => {
      if (request.headers['if-none-match'] === '"june-12"') response.writeHead(304).end();
      else response.writeHead(200, { 'content-type': 'application/json', etag: '"june-12"' }).end(JUNE_12);
    };
    const first = await fetchHf(handler, ONE_DAY);
    const url = server!.url('/api/daily_papers?date=2026-06-12');
    expect(first.state?.[url]).toEqual({ etag: '"june-12"', lastModified: null, window: ONE_DAY });
    await server?.close();
    server = undefined;
    const again = await fetchHf(handler, ONE_DAY, { state: first.state ?? {} });
    // a new server has a new port, so give it the same validators under its own URL
    expect(again.items).toHaveLength(30);
    const sameServer = server!;
    const http = createHttpClient({ timeoutMs: 3000, maxBytes: 2 * 1024 * 1024, retries: 0 });
    const source = createSource({
      id: 'api-hf',
      type: 'hf-daily-papers',
      url: sameServer.url('/api/daily_papers'),
      weight: 1,
      enabled: true,
    });
    const third = await source.fetch({ window: ONE_DAY, http, state: again.state ?? {}, log: silentLogger });
    expect(sameServer.requests.at(-1)?.headers['if-none-match']).toBe('"june-12"');
    expect(third.items).toEqual([]);
    expect(third.error).toBeUndefined();
    expect(third.state?.[sameServer.url('/api/daily_papers?date=2026-06-12')]?.etag).toBe('"june-12"');
  });
});
