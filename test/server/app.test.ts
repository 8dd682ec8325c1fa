// The HTTP app through app.request(): the site's files, validators, encodings, headers, health, metrics, logs.
import { readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigestMetrics, createServerApp, createSiteFiles } from '../../src/server/index.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

describe('createServerApp', () => {
  let site: TempSite;
  let databaseUp = true;
  const lines: string[] = [];
  let app: ReturnType<typeof createServerApp>;
  const METRICS_TOKEN = 'metrics-token-0123456789';
  const withToken = { headers: { authorization: `Bearer ${METRICS_TOKEN}` } };
  const metrics = createDigestMetrics({
    subscribersByStatus: async () => ({ pending: 2, confirmed: 5, unsubscribed: 1, bounced: 0 }),
  });

  beforeAll(async () => {
    site = await publishTempSite();
    app = createServerApp({
      site: { dir: site.dir },
      metrics,
      security: { metricsToken: METRICS_TOKEN },
      log: (line) => lines.push(line),
      health: {
        checkDatabase: async () => {
          if (!databaseUp) throw new Error('connection refused');
        },
        freshMs: 0,
      },
    });
  });
  afterAll(() => site.remove());

  it('serves the front page and an edition page with their bytes, type and short cache', async () => {
    const front = await app.request('/');
    expect(front.status).toBe(200);
    expect(front.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await front.text()).toBe(readFileSync(join(site.dir, 'index.html'), 'utf8'));
    expect(front.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    const edition = await app.request('/2026-05-04/');
    expect(await edition.text()).toBe(readFileSync(join(site.dir, '2026-05-04', 'index.html'), 'utf8'));
    const feed = await app.request('/feed.xml');
    expect(feed.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('public, max-age=3600');
    const search = await app.request('/search/');
    expect(search.status).toBe(200);
    expect((await app.request('/search.js')).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
  });

  it('redirects a folder without its slash, so relative links resolve', async () => {
    const response = await app.request('/2026-05-04?ref=x');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/2026-05-04/?ref=x');
  });

  it('answers 304 to a matching If-None-Match or a later If-Modified-Since', async () => {
    const first = await app.request('/2026-05-04/');
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const cached = await app.request('/2026-05-04/', { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    const byDate = await app.request('/2026-05-04/', { headers: { 'if-modified-since': lastModified } });
    expect(byDate.status).toBe(304);
    const stale = await app.request('/2026-05-04/', { headers: { 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
    // If-None-Match decides when both are sent (RFC 9110).
    const both = await app.request('/2026-05-04/', {
      headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified },
    });
    expect(both.status).toBe(200);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await app.request('/2026-05-04/', { headers: { 'if-modified-since': older } })).status).toBe(200);
  });

  it('sends brotli or gzip as asked, each with its own strong ETag, and Vary', async () => {
    const raw = readFileSync(join(site.dir, '2026-05-04', 'index.html'));
    const br = await app.request('/2026-05-04/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.byteLength).toBeLessThan(raw.byteLength / 2);
    expect(brotliDecompressSync(brBody).equals(raw)).toBe(true);
    const gz = await app.request('/2026-05-04/', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(raw)).toBe(true);
    const noBrotli = await app.request('/2026-05-04/', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(noBrotli.headers.get('content-encoding')).toBe('gzip');
    const identity = await app.request('/2026-05-04/');
    expect(identity.headers.get('content-encoding')).toBeNull();
    const tags = [br, gz, identity].map((response) => response.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
    // A cached gzip copy revalidates against the brotli answer: same bytes underneath.
    const revalidated = await app.request('/2026-05-04/', {
      headers: { 'accept-encoding': 'br', 'if-none-match': tags[1]! },
    });
    expect(revalidated.status).toBe(304);
  });

  it('serves a changed file within the revalidation delay, with a new ETag (cache keyed by mtime and size)', async () => {
    let time = 0;
    const files = createSiteFiles({ root: site.dir, revalidateMs: 1000, now: () => time });
    const fresh = createServerApp({
      site: { dir: site.dir, files },
      health: { checkDatabase: async () => {} },
      log: () => {},
    });
    const path = join(site.dir, 'robots.txt');
    const before = await fresh.request('/robots.txt');
    writeFileSync(path, 'User-agent: *\nDisallow: /private/\n');
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    time = 999;
    expect(await (await fresh.request('/robots.txt')).text()).toBe(await before.text());
    time = 1000;
    const after = await fresh.request('/robots.txt');
    expect(await after.text()).toBe('User-agent: *\nDisallow: /private/\n');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    rmSync(path);
    time = 2000;
    expect((await fresh.request('/robots.txt')).status).toBe(404);
  });

  it('puts the security headers and a request id on every response, 404 and 405 included', async () => {
    const responses = await Promise.all([
      app.request('/'),
      app.request('/no-such-page'),
      app.request('/healthz'),
      app.request('/metrics', withToken),
      app.request('/', { method: 'POST' }),
      app.request('/2026-05-04'),
    ]);
    for (const response of responses) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(response.headers.get(name), `${name} on ${response.status}`).toBe(value);
      }
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(responses.map((response) => response.status)).toEqual([200, 404, 200, 200, 405, 301]);
  });

  it('answers a missing page with the site 404 page, not cached', async () => {
    const response = await app.request('/2099-01-01/');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(readFileSync(join(site.dir, '404.html'), 'utf8'));
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses path traversal, encoded or not, dot files and symlinks out of the site', async () => {
    // A sibling of the site folder: one "../" away.
    const secret = `${site.dir}-secret.txt`;
    const name = basename(secret);
    writeFileSync(secret, 'secret');
    writeFileSync(join(site.dir, '.env'), 'DIGEST_SECRET=nope');
    symlinkSync(secret, join(site.dir, 'leak.txt'));
    for (const path of [
      `/../${name}`,
      `/%2e%2e/${name}`,
      `/2026-05-04/%2e%2e/%2e%2e/${name}`,
      `/..%2f${name}`,
      `/..%5c${name}`,
      `/%2e%2e%5c${name}`,
      '/.env',
      '//etc/passwd',
      '/leak.txt',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/^secret$|DIGEST_SECRET/);
    }
    // A NUL or a broken percent-escape is refused at the edge, before any route.
    for (const path of ['/index.html%00.txt', '/%E0%A4%A', '/%C3%28', '/api/v1/items/%00', '/?q=%00']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ error: 'invalid-input' });
    }
    rmSync(secret);
  });

  it('/healthz: 200 when the database answers, 503 JSON without details when not', async () => {
    databaseUp = true;
    const up = await app.request('/healthz');
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ok', database: 'ok' });
    databaseUp = false;
    const down = await app.request('/healthz', { headers: { 'x-request-id': 'probe-1' } });
    expect(down.status).toBe(503);
    expect(down.headers.get('cache-control')).toBe('no-store');
    expect(await down.json()).toEqual({ status: 'error', database: 'unreachable' });
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'health check failed');
    expect(logged).toMatchObject({ requestId: 'probe-1', error: 'connection refused', level: 'error' });
    databaseUp = true;
  });

  it('/healthz names the site generation an instance serves; one it cannot catch up with is "degraded"', async () => {
    let served = { generation: 7 as number | null, failing: false };
    const instance = createServerApp({
      site: { dir: site.dir },
      health: { checkDatabase: async () => {}, freshMs: 0, site: () => served },
      log: () => {},
    });
    expect(await (await instance.request('/healthz')).json()).toEqual({
      status: 'ok',
      database: 'ok',
      site: { generation: 7 },
    });
    served = { generation: 7, failing: true };
    const behind = await instance.request('/healthz');
    expect(behind.status).toBe(200);
    expect(await behind.json()).toEqual({ status: 'degraded', database: 'ok', site: { generation: 7 } });
  });

  it('/metrics: Prometheus text with request counts, latency buckets, digest counters and subscribers', async () => {
    metrics.editionsBuilt.inc();
    metrics.mailsSent.inc(undefined, 3);
    await app.request('/2026-05-04/');
    // A stranger gets nothing: no token, or a wrong one, and app.request() has no loopback socket.
    expect((await app.request('/metrics')).status).toBe(401);
    const wrong = await app.request('/metrics', { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('digest_');
    const response = await app.request('/metrics', withToken);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE digest_http_requests_total counter');
    expect(text).toMatch(/^digest_http_requests_total\{route="site",method="GET",status="200"\} \d+$/m);
    expect(text).toMatch(/^digest_http_requests_total\{route="site",method="GET",status="404"\} \d+$/m);
    expect(text).toContain('# TYPE digest_http_request_duration_seconds histogram');
    expect(text).toMatch(/^digest_http_request_duration_seconds_bucket\{route="site",le="\+Inf"\} \d+$/m);
    expect(text).toMatch(/^digest_http_request_duration_seconds_count\{route="site"\} \d+$/m);
    expect(text).toMatch(/^digest_editions_built_total 1$/m);
    expect(text).toMatch(/^digest_mails_sent_total 3$/m);
    expect(text).toMatch(/^digest_mails_bounced_total 0$/m);
    expect(text).toMatch(/^digest_subscribers\{status="confirmed"\} 5$/m);
    // Every sample line is "name{labels} value": nothing a scraper would reject.
    for (const line of text.trim().split('\n')) {
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"\n]*"(,[a-z_]+="[^"\n]*")*\})? [0-9.e+-]+|.*\+Inf"\} \d+)$/,
      );
    }
  });

  it('logs one JSON line per request with the request id, echoing a sane incoming one', async () => {
    lines.length = 0;
    const echoed = await app.request('/feed.xml', {
      headers: { 'x-request-id': 'abc-123', 'user-agent': 'test' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await app.request('/', { headers: { 'x-request-id': 'bad id <script>' } });
    const generated = replaced.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({
      msg: 'request',
      requestId: 'abc-123',
      method: 'GET',
      path: '/feed.xml',
      route: 'site',
      status: 200,
      userAgent: 'test',
    });
    expect(typeof first.durationMs).toBe('number');
    expect(second.requestId).toBe(generated);
  });

  it('answers an unexpected failure with 500 JSON, the request id and the security headers, and logs it', async () => {
    const errors: string[] = [];
    const broken = createServerApp({
      site: {
        dir: site.dir,
        files: {
          get: async () => {
            throw new Error('disk on fire');
          },
          cachedBytes: 0,
        },
      },
      health: { checkDatabase: async () => {} },
      log: (line) => errors.push(line),
    });
    const response = await broken.request('/', { headers: { 'x-request-id': 'req-500' } });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal', requestId: 'req-500' });
    expect(response.headers.get('x-request-id')).toBe('req-500');
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(response.headers.get(name)).toBe(value);
    const logged = errors.map((line) => JSON.parse(line));
    expect(logged[0]).toMatchObject({ msg: 'unhandled error', requestId: 'req-500', level: 'error' });
    expect(logged[0].error).toContain('disk on fire');
    expect(logged[1]).toMatchObject({ msg: 'request', status: 500, level: 'error' });
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await app.request('/', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(
      String(readFileSync(join(site.dir, 'index.html')).length),
    );
    expect(await response.text()).toBe('');
  });
});
