// Sources with deadlines: a hung server ends at the deadline, days go a few at a time, a waiting build says
// what it waits for, no network fails at once, and a feed of nothing but rejected entries is a failed source.
// Deadlines and progress ticks run on a manual timer that a test advances once the requests it waits on are open
// (or answered): time passes when the test says so, never by how busy the machine is.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceConfig } from '../../src/config/config-schema.js';
import { type HttpClient, silentLogger } from '../../src/core/ports.js';
import { formatWaiting, ingest, type WaitingSource } from '../../src/editions/ingest.js';
import { createHttpClient, type HttpClientOptions } from '../../src/net/http-client.js';
import type { HostLookup } from '../../src/net/ssrf-guard.js';
import { createSource } from '../../src/sources/index.js';
import { useTestStore } from '../support/database.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { type ManualTimer, manualTimer } from '../support/manual-timer.js';

const WINDOW = { start: '2026-06-08', end: '2026-06-14' };
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startLoopback>[0]): Promise<LoopbackServer> {
  const server = await startLoopback(handler);
  servers.push(server);
  return server;
}

// Slow, patient settings: only the source deadline can end a hung request quickly.
const http = (options: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ timeoutMs: 30_000, maxBytes: 1024 * 1024, retries: 3, ...options });

const source = (id: string, type: SourceConfig['type'], url: string, extra: Partial<SourceConfig> = {}) =>
  ({ id, type, url, weight: 1, enabled: true, ...extra }) as SourceConfig;

const paper = (id: string) => ({ paper: { id, title: `Paper ${id}`, summary: 'A summary.', upvotes: 1 } });

/** A server that never answers; the `at`-th request it receives moves `timer` on by `ms` (once that handler returned). */
function hungServer(at: number, timer: ManualTimer, ms: number): Promise<LoopbackServer> {
  let received = 0;
  return serve(() => {
    received += 1;
    if (received === at) setImmediate(() => timer.advance(ms));
    return new Promise<void>(() => {});
  });
}

/** The real client, moving `timer` on by `ms` once `count` requests have settled and their callers had the answers. */
function advanceAfterSettled(client: HttpClient, count: number, timer: ManualTimer, ms: number): HttpClient {
  let settled = 0;
  return {
    async request(request) {
      try {
        return await client.request(request);
      } finally {
        settled += 1;
        if (settled === count) setImmediate(() => timer.advance(ms));
      }
    },
  };
}

describe('ingest with deadlines', () => {
  const store = useTestStore();
  const ports = (timer: ManualTimer, client: HttpClient = http()) => ({
    store: store(),
    http: client,
    log: silentLogger,
    timer,
    createSource,
  });

  it('ends a hung source at its deadline while the others finish', async () => {
    const timer = manualTimer();
    // The first three days (asked 3 at a time) are open when 300 ms pass.
    const hung = await hungServer(3, timer, 300);
    const feed = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/feed+json' }).end(
        JSON.stringify({
          version: 'https://jsonfeed.org/version/1.1',
          title: 'ok',
          items: [
            { id: '1', url: 'https://example.com/a', title: 'A', date_published: '2026-06-10T10:00:00Z' },
          ],
        }),
      );
    });
    const reports = await ingest({
      sources: [
        source('api-hf', 'hf-daily-papers', hung.url('/api/daily_papers'), { deadlineMs: 300 }),
        source('rss-ok', 'feed', feed.url('/feed.json')),
      ],
      window: WINDOW,
      ports: ports(timer),
    });
    expect(reports.map((report) => [report.id, report.status, report.items])).toEqual([
      ['api-hf', 'error', 0],
      ['rss-ok', 'ok', 1],
    ]);
    expect(reports[0]?.error).toMatch(/^did not finish within its 300 ms deadline/);
    // The HTTP timeout is 30 s with 3 retries: only the advanced deadline can have ended it; no wait is left set.
    expect(timer.now()).toBe(300);
    expect(timer.pending).toBe(0);
  });

  it('keeps the days that finished when one day hangs past the deadline', async () => {
    const timer = manualTimer();
    const server = await serve((request, response) => {
      const day = request.query.get('date');
      if (day === '2026-06-10') return new Promise<void>(() => {});
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([paper(`${day}-x`)]));
    });
    const [report] = await ingest({
      sources: [source('api-hf', 'hf-daily-papers', server.url('/api/daily_papers'), { deadlineMs: 500 })],
      window: WINDOW,
      // The deadline passes once the six other days are answered and read.
      ports: ports(timer, advanceAfterSettled(http(), 6, timer, 500)),
    });
    expect(report).toMatchObject({ id: 'api-hf', status: 'ok', items: 6 });
    expect(report?.warnings).toEqual(["2026-06-10: not finished before the source's deadline"]);
  });

  it('says what a waiting build waits for, on the timer', async () => {
    const timer = manualTimer();
    // The three first days are open when 5 s pass (one progress tick); the tick moves on to the 8 s deadline.
    const server = await hungServer(3, timer, 5000);
    const seen: WaitingSource[][] = [];
    await ingest({
      sources: [
        source('api-hf', 'hf-daily-papers', server.url('/api/daily_papers?token=s3cret'), {
          deadlineMs: 8000,
        }),
      ],
      window: WINDOW,
      ports: ports(timer),
      progress: {
        onWaiting: (waiting) => {
          seen.push(waiting);
          setImmediate(() => timer.advance(3000));
        },
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.map(({ id, elapsedMs }) => [id, elapsedMs])).toEqual([['api-hf', 5000]]);
    expect(seen[0]?.[0]?.requests).toHaveLength(3);
    const line = formatWaiting(seen[0] ?? []);
    expect(line).toMatch(
      /^waiting for api-hf \(http:\/\/127\.0\.0\.1:\d+\/api\/daily_papers\?token=\*\*\*&date=2026-06-\d\d, .*\), 5 s$/,
    );
    expect(line).not.toContain('s3cret');
    expect(timer.pending).toBe(0);
  });

  it('fails each source at once without a network (refused, unresolvable), asking no further days', async () => {
    const closed = await serve(() => {});
    const closedUrl = closed.url('/api/daily_papers');
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    let lookups = 0;
    const lookup: HostLookup = async (hostname) => {
      lookups += 1;
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    // Any retry would wait through the client's backoff: a wait asked is noted instead of slept.
    const waits: number[] = [];
    const client = http({ lookup, backoff: { sleep: async (ms) => void waits.push(ms) } });
    const timer = manualTimer();
    const reports = await ingest({
      sources: [
        source('api-hf', 'hf-daily-papers', closedUrl),
        source('rss-daily', 'feed', 'https://feeds.example/{date}.xml'),
        source('rss-one', 'feed', 'https://blog.example/feed.xml'),
      ],
      window: WINDOW,
      ports: ports(timer, client),
    });
    // Nothing retried and no deadline passed (the timer never moved): every source failed at once.
    expect(waits).toEqual([]);
    expect(reports.map((report) => report.status)).toEqual(['error', 'error', 'error']);
    expect(reports[0]?.error).toMatch(
      /^all 7 days failed; first: could not reach .*nothing is listening there \(ECONNREFUSED/,
    );
    expect(reports[1]?.error).toMatch(/the host name does not resolve \(ENOTFOUND, feeds\.example\)/);
    expect(reports[2]?.error).toMatch(
      /^could not reach https:\/\/blog\.example\/feed\.xml: the host name does not resolve/,
    );
    // The per-day feed stopped after its first round of 3 days; the single feed asked once.
    expect(lookups).toBeLessThanOrEqual(4);
    expect(reports[1]?.warnings?.filter((warning) => warning.includes('not asked'))).toHaveLength(4);
  });

  it('reports a JSON Feed whose every entry was rejected as failed; an empty one stays ok', async () => {
    const server = await serve((request, response: ServerResponse) => {
      const items =
        request.path === '/junk.json'
          ? [
              { id: '1', content_text: 'no link' },
              { id: '2', url: 'javascript:alert(1)', title: 'x' },
              'junk',
            ]
          : request.path === '/only-junk.json'
            ? ['junk', 42]
            : [];
      response
        .writeHead(200, { 'content-type': 'application/feed+json' })
        .end(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 't', items }));
    });
    const reports = await ingest({
      sources: [
        source('junk', 'feed', server.url('/junk.json')),
        source('only-junk', 'feed', server.url('/only-junk.json')),
        source('empty', 'feed', server.url('/empty.json')),
      ],
      window: WINDOW,
      ports: ports(manualTimer()),
    });
    expect(reports.map((report) => [report.id, report.status])).toEqual([
      ['junk', 'error'],
      ['only-junk', 'error'],
      ['empty', 'ok'],
    ]);
    expect(reports[0]?.error).toBe(
      'every entry of the feed was rejected (2 entries: no http(s) link); check the URL or the feed',
    );
    expect(reports[1]?.error).toMatch(/rejected \(2 entries the parser could not read\)/);
  });

  it('never repeats credentials of a source URL in its report, and shortens long ones', async () => {
    const server = await serve((_, response) => {
      response.writeHead(404).end();
    });
    const long = `${server.url('/feed.xml')}?api_key=s3cret&filler=${'x'.repeat(5000)}`;
    const [report] = await ingest({
      sources: [source('rss-x', 'feed', long)],
      window: WINDOW,
      ports: ports(manualTimer()),
    });
    expect(report?.error).toMatch(
      /^HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/feed\.xml\?api_key=\*\*\*&filler=x+…x+:/,
    );
    expect(report?.error).not.toContain('s3cret');
    expect(report?.error?.length).toBeLessThan(250);
  });
});

describe('per-day sources', () => {
  it('fetch their days a few at a time (3 by default), never more', async () => {
    let inFlight = 0;
    let most = 0;
    let received = 0;
    const held: (() => void)[] = [];
    // Each answer waits until three requests are open at once (or the last day came): sequential fetching would
    // never get a second request in, and the test would hang until vitest's timeout.
    const server = await serve((request, response) => {
      received += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      const day = request.query.get('date');
      held.push(() => {
        inFlight -= 1;
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify([paper(`${day}-x`)]));
      });
      if (held.length === 3 || received === 7) for (const release of held.splice(0)) release();
    });
    const result = await createSource(
      source('api-hf', 'hf-daily-papers', server.url('/api/daily_papers')),
    ).fetch({
      window: WINDOW,
      http: http(),
      state: {},
      log: silentLogger,
    });
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(7);
    expect(most).toBe(3);
    // Results stay in day order whatever order the answers came in.
    expect(result.items.map((item) => item.publishedAt.slice(0, 10))).toEqual([
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-13',
      '2026-06-14',
    ]);
  });
});
