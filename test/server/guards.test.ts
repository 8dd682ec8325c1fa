// The guards the routes that take input stand behind, on a small Hono app; then the one 429 every route family of
// the composed server answers, counted on the digest's clock.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { memoryRateLimitStore } from '../../src/core/rate-limiter.js';
import { textGuard } from '../../src/server/guards.js';
import { allowedOrigins, bodyLimit, originCheck, rateLimit } from '../../src/server/index.js';
import { createTestStore } from '../support/database.js';
import { composedApp } from '../support/root.js';

function guardedApp() {
  let time = 0;
  const limiter = memoryRateLimitStore(() => time).limiter('subscribe', { capacity: 2, refillMs: 60_000 });
  const app = new Hono();
  app.use('/subscribe', originCheck(allowedOrigins('https://digest.example.org/news/')));
  app.use('/subscribe', bodyLimit(1024));
  app.use(
    '/subscribe',
    rateLimit(limiter, (c) => c.req.header('x-test-ip') ?? 'unknown'),
  );
  app.post('/subscribe', async (c) => c.json({ received: (await c.req.text()).length }));
  app.get('/subscribe', (c) => c.text('form'));
  return { app, advance: (ms: number) => (time += ms) };
}

const ORIGIN = 'https://digest.example.org';

describe('originCheck', () => {
  it('lets a POST from the site through and refuses a missing, foreign or look-alike Origin with 403', async () => {
    const { app } = guardedApp();
    const post = (headers: Record<string, string>) =>
      app.request('/subscribe', { method: 'POST', body: 'email=a%40b.co', headers });
    expect((await post({ origin: ORIGIN })).status).toBe(200);
    for (const origin of [
      undefined,
      'https://evil.example',
      'http://digest.example.org',
      'https://digest.example.org.evil.example',
      'https://digest.example.org:8443',
      'null',
    ]) {
      const response = await post(origin ? { origin } : {});
      expect(response.status, String(origin)).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'forbidden' });
    }
  });

  it('leaves GET alone', async () => {
    const { app } = guardedApp();
    expect((await app.request('/subscribe')).status).toBe(200);
  });
});

describe('bodyLimit', () => {
  it('refuses an oversized body with 413, announced or streamed', async () => {
    const { app } = guardedApp();
    const big = 'x'.repeat(4096);
    const announced = await app.request('/subscribe', {
      method: 'POST',
      body: big,
      headers: { origin: ORIGIN, 'content-length': String(big.length) },
    });
    expect(announced.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let index = 0; index < 8; index++) controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await app.request('/subscribe', {
      method: 'POST',
      body: stream,
      headers: { origin: ORIGIN },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const small = await app.request('/subscribe', {
      method: 'POST',
      body: 'x'.repeat(1000),
      headers: { origin: ORIGIN },
    });
    expect(await small.json()).toEqual({ received: 1000 });
  });

  it('on a Node listener the same: 413 announced or streamed, a small body read, text checked', async () => {
    const { app } = guardedApp();
    app.use('/checked', bodyLimit(1024), textGuard);
    app.post('/checked', async (c) => c.json({ received: await c.req.json() }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          body,
          headers: { origin: ORIGIN, ...headers },
          duplex: 'half',
        } as RequestInit);
      expect((await post('/subscribe', 'x'.repeat(4096))).status).toBe(413);
      const chunks = new ReadableStream({
        start(controller) {
          for (let index = 0; index < 8; index++)
            controller.enqueue(new TextEncoder().encode('x'.repeat(512)));
          controller.close();
        },
      });
      expect((await post('/subscribe', chunks)).status).toBe(413);
      expect(await (await post('/subscribe', 'x'.repeat(1000))).json()).toEqual({ received: 1000 });
      const json = { 'content-type': 'application/json' };
      const checked = await post('/checked', '{"email":"reader@example.org"}', json);
      expect(await checked.json()).toEqual({ received: { email: 'reader@example.org' } });
      expect((await post('/checked', '{"email":"a\u0000"}', json)).status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('rateLimit', () => {
  it('refuses a flood from one IP with 429 and Retry-After, others unaffected', async () => {
    const { app, advance } = guardedApp();
    const post = (ip: string) =>
      app.request('/subscribe', { method: 'POST', body: 'x', headers: { origin: ORIGIN, 'x-test-ip': ip } });
    const statuses = [];
    for (let index = 0; index < 5; index++) statuses.push((await post('203.0.113.9')).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const refused = await post('203.0.113.9');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await post('198.51.100.1')).status).toBe(200);
    advance(60_000);
    expect((await post('203.0.113.9')).status).toBe(200);
  });
});

describe('the one 429 of every route family', () => {
  it("the API, /mcp and the subscriber routes refuse a flood alike, and count on the digest's clock", async () => {
    const store = await createTestStore();
    const siteDir = await mkdtemp(join(tmpdir(), 'digest-429-'));
    const clock = { time: Date.parse('2026-05-04T08:00:00Z'), now: () => new Date(clock.time) };
    try {
      const app = await composedApp({
        store,
        siteDir,
        clock,
        config: {
          publish: { baseUrl: `${ORIGIN}/news/` },
          server: { apiPerMinute: 1, mcpPerMinute: 1, subscribePerMinute: 1 },
        },
      });
      const families: Record<string, () => Response | Promise<Response>> = {
        api: () => app.request('/api/v1/editions'),
        mcp: () =>
          app.request('/mcp', {
            method: 'POST',
            headers: {
              host: '127.0.0.1',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
          }),
        subscribe: () =>
          app.request('/subscribe', {
            method: 'POST',
            headers: {
              origin: ORIGIN,
              accept: 'application/json',
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'email=reader%40example.org',
          }),
      };
      for (const [family, request] of Object.entries(families)) {
        expect((await request()).status, family).not.toBe(429);
        const refused = await request();
        expect(refused.status, family).toBe(429);
        expect(refused.headers.get('retry-after'), family).toBe('60');
        expect(refused.headers.get('cache-control'), family).toMatch(/no-store/);
        expect(await refused.json(), family).toEqual({
          error: 'too-many-requests',
          message: 'Too many requests; try again later.',
        });
      }
      // A minute later on the digest's clock (not the wall clock's) every family answers again.
      clock.time += 60_000;
      for (const [family, request] of Object.entries(families)) {
        expect((await request()).status, family).not.toBe(429);
      }
    } finally {
      await store.close();
      await rm(siteDir, { recursive: true, force: true });
    }
  });
});
