// Reading papers in full: real recorded arXiv pages served at the arXiv paths on loopback, a real PGlite store, and a
// clock whose sleep advances it (the 3 s spacing is checked on that clock, without waiting).
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ARXIV_CACHE_NAMESPACE } from '../../src/enrich/_cache.js';
import { ARXIV_INTERVAL_MS, type FullTextOptions, readFullTexts } from '../../src/enrich/full-text.js';
import { createHostPacer, type PacerTimer } from '../../src/net/host-pacer.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { useTestStore } from '../support/database.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackRequest, type LoopbackServer, startLoopback } from '../support/loopback.js';

const PAGES: Record<string, string> = {
  '/html/2310.06825': '2310.06825v1_arxiv-html.html',
  '/html/2310.06825v2': '2310.06825v1_arxiv-html.html',
  '/html/2508.08468': '2508.08468v6_arxiv-html.html',
};
/** A PDF-only paper: arXiv answers 404 at its HTML path. */
const NO_HTML = '2605.00001';

const http = createHttpClient({
  timeoutMs: 5000,
  maxBytes: 20 * 1024 * 1024,
  retries: 0,
  allowLoopback: true,
});
const store = useTestStore();
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A clock that only moves when someone sleeps on it. */
function fakeTimer(): PacerTimer & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

async function arxiv(timer: PacerTimer): Promise<{ server: LoopbackServer; at: number[] }> {
  const at: number[] = [];
  server = await startLoopback((request: LoopbackRequest, response: ServerResponse) => {
    at.push(timer.now());
    const file = PAGES[request.path];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>No HTML for this paper</h1>');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(readFixture('real', 'arxiv-html', file));
  });
  return { server, at };
}

function options(base: string, timer: PacerTimer, extra: Partial<FullTextOptions> = {}): FullTextOptions {
  return {
    http,
    store: store(),
    arxiv: { baseUrl: `${base}/html/` },
    offline: false,
    pacer: createHostPacer(ARXIV_INTERVAL_MS, timer),
    now: () => new Date('2026-05-04T12:00:00Z'),
    ...extra,
  };
}

describe('readFullTexts', () => {
  it('reads each paper once, one request every 3 s, and a rebuild sends none', async () => {
    const timer = fakeTimer();
    const { server, at } = await arxiv(timer);
    const ids = ['2310.06825', '2508.08468', NO_HTML];
    const first = await readFullTexts(ids, options(server.origin, timer));
    expect(server.requests.map((request) => request.path)).toEqual([
      '/html/2310.06825',
      '/html/2508.08468',
      `/html/${NO_HTML}`,
    ]);
    expect(at).toEqual([0, 3000, 6000]);
    expect(first.fetched).toBe(3);
    const mistral = first.papers.get('2310.06825');
    expect(mistral).toMatchObject({ status: 'read', version: 1 });
    // The page stated its version: section links name it.
    expect(mistral?.paper?.url).toBe(`${server.origin}/html/2310.06825v1`);
    expect(first.papers.get(NO_HTML)).toMatchObject({
      status: 'none',
      note: 'arXiv has no HTML rendering of this paper',
    });

    const again = await readFullTexts(ids, options(server.origin, timer));
    expect(server.requests).toHaveLength(3);
    expect(again.fetched).toBe(0);
    expect(again.papers.get('2508.08468')?.paper?.sections.map((section) => section.id)).toEqual(
      mistralOrAvse(first.papers.get('2508.08468')?.paper?.sections),
    );
    expect(again.papers.get(NO_HTML)?.status).toBe('none');
  });

  it('asks again for a paper without HTML once the refresh age has passed, not before', async () => {
    const timer = fakeTimer();
    const { server } = await arxiv(timer);
    await readFullTexts([NO_HTML], options(server.origin, timer));
    await readFullTexts(
      [NO_HTML],
      options(server.origin, timer, { now: () => new Date('2026-05-06T12:00:00Z') }),
    );
    expect(server.requests).toHaveLength(1);
    await readFullTexts(
      [NO_HTML],
      options(server.origin, timer, { now: () => new Date('2026-05-08T12:00:00Z') }),
    );
    expect(server.requests).toHaveLength(2);
  });

  it('reads a new version once the arXiv metadata names it', async () => {
    const timer = fakeTimer();
    const { server } = await arxiv(timer);
    await readFullTexts(['2310.06825'], options(server.origin, timer));
    await store().cache.put({
      namespace: ARXIV_CACHE_NAMESPACE,
      key: '2310.06825',
      value: { arxivId: '2310.06825', version: 2 },
    });
    const next = await readFullTexts(['2310.06825'], options(server.origin, timer));
    expect(server.requests.map((request) => request.path)).toEqual([
      '/html/2310.06825',
      '/html/2310.06825v2',
    ]);
    expect(next.papers.get('2310.06825')).toMatchObject({ status: 'read', version: 2 });
    await readFullTexts(['2310.06825'], options(server.origin, timer));
    expect(server.requests).toHaveLength(2);
  });

  it('offline, fetches nothing: stored texts are read, the others say why they are missing', async () => {
    const timer = fakeTimer();
    const { server } = await arxiv(timer);
    await readFullTexts(['2310.06825'], options(server.origin, timer));
    const offline = await readFullTexts(['2310.06825', '2508.08468'], {
      ...options(server.origin, timer),
      offline: true,
    });
    expect(server.requests).toHaveLength(1);
    expect(offline.fetched).toBe(0);
    expect(offline.papers.get('2310.06825')?.status).toBe('read');
    expect(offline.missing.get('2508.08468')).toMatch(/fetching is off/);
  });

  it('a network failure stores nothing: the paper is written from its abstract this time and asked again next time', async () => {
    const timer = fakeTimer();
    server = await startLoopback((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    });
    const failed = await readFullTexts(['2310.06825'], options(server.origin, timer));
    expect(failed.missing.get('2310.06825')).toMatch(/503/);
    expect(failed.warnings.join(' ')).toMatch(/could not be read/);
    await readFullTexts(['2310.06825'], options(server.origin, timer));
    expect(server.requests).toHaveLength(2);
  });
});

describe('createHostPacer', () => {
  it('spaces callers that ask at once, per host', async () => {
    // A clock that stands still: each caller's wait is measured from the same moment.
    const timer = {
      slept: [] as number[],
      now: () => 0,
      sleep: async (ms: number) => void timer.slept.push(ms),
    };
    const pacer = createHostPacer(3000, timer);
    await Promise.all([
      pacer.wait('https://arxiv.org/html/1'),
      pacer.wait('https://arxiv.org/html/2'),
      pacer.wait('https://example.org/x'),
      pacer.wait('https://arxiv.org/html/3'),
    ]);
    // arXiv's three requests wait 0, 3 s and 6 s; the other host does not wait.
    expect(timer.slept).toEqual([3000, 6000]);
  });
});

function mistralOrAvse(sections: { id: string }[] | undefined): string[] {
  return (sections ?? []).map((section) => section.id);
}
