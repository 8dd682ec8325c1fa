// /r/<token> in the HTTP app: a 302 to where the use case says, never cached, no Referer for the item's site (the
// app's default policy does not override the route's), and no request log line per click — only a failure is
// logged — while the request metrics still count every answer.
import { describe, expect, it } from 'vitest';
import { createDigestMetrics, createServerApp } from '../../src/server/index.js';
import type { FollowRequest } from '../../src/subscribers/index.js';

function clickApp(follow: (request: FollowRequest) => Promise<{ location: string }>) {
  const lines: string[] = [];
  const metrics = createDigestMetrics();
  const app = createServerApp({
    site: { dir: '/nonexistent-site' },
    metrics,
    log: (line) => lines.push(line),
    health: { checkDatabase: async () => {} },
    useCases: { clicks: { follow: async (request) => ({ ...(await follow(request)), counted: 'click' }) } },
  });
  return { app, lines, metrics };
}

describe('click routes', () => {
  it('answers 302 with no-store and no-referrer, and writes no log line for it', async () => {
    const seen: FollowRequest[] = [];
    const { app, lines, metrics } = clickApp(async (request) => {
      seen.push(request);
      return { location: 'https://example.com/paper' };
    });
    const response = await app.request('/r/k.some-token', { headers: { 'user-agent': 'Mozilla/5.0' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/paper');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).toMatchObject([{ token: 'k.some-token', method: 'GET', userAgent: 'Mozilla/5.0' }]);
    expect(lines).toEqual([]);
    expect(await metrics.registry.render()).toMatch(/route="\/r\/:token",method="GET",status="302"\} 1/);
    // Other routes keep their line and the app's default policy.
    const health = await app.request('/healthz');
    expect(health.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(lines.map((line) => JSON.parse(line).route)).toEqual(['/healthz']);
  });

  it('a failing redirect is logged', async () => {
    const { app, lines } = clickApp(async () => {
      throw new Error('store down');
    });
    expect((await app.request('/r/k.token')).status).toBe(500);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; route?: string; status?: number });
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'request', route: '/r/:token', status: 500 }),
    );
    // Even a failure's line keeps no token.
    expect(lines.join('\n')).not.toContain('k.token');
  });

  it('a trailing slash is the same link; other methods are a 405; no line at any status names the token', async () => {
    const { app, lines } = clickApp(async () => ({ location: 'https://example.com/paper' }));
    const token = 'k.20260504.1.m.abcdefghijkl.SECRETSIGNATUREPART012.READERPARTSEALED012345';
    for (const method of ['GET', 'HEAD']) {
      const answer = await app.request(`/r/${token}/`, { method });
      expect(answer.status, method).toBe(302);
      expect(answer.headers.get('location')).toBe('https://example.com/paper');
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await app.request(`/r/${token}`, { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    }
    // Not a link at all (a mangled one with a path after it): the site's 404, its line without the token.
    expect((await app.request(`/r/${token}/more`)).status).toBe(404);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toMatch(/SECRETSIGNATURE|READERPART/);
      expect(JSON.parse(line).path).toMatch(/^\/r\/-/);
    }
  });
});
