import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, UnreachableError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/ports.js';
import { parseRetryAfter } from '../../src/net/_retry.js';
import { createHttpClient, DEFAULT_USER_AGENT, type HttpClientOptions } from '../../src/net/http-client.js';
import { type LoopbackHandler, type LoopbackServer, startLoopback } from '../support/loopback.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: LoopbackHandler): Promise<LoopbackServer> {
  server = await startLoopback(handler);
  return server;
}

function recordingClient(overrides: Partial<HttpClientOptions> = {}) {
  const waits: number[] = [];
  const lines: string[] = [];
  const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(m), debug: (m) => lines.push(m) };
  const client = createHttpClient({
    timeoutMs: 2000,
    maxBytes: 1024 * 1024,
    retries: 3,
    log,
    ...overrides,
    backoff: {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
      ...overrides.backoff,
    },
  });
  return { client, waits, lines };
}

describe('createHttpClient', () => {
  it('sends a clear User-Agent and returns body, headers and validators', async () => {
    const s = await serve((_, response) => {
      response
        .writeHead(200, {
          'content-type': 'text/xml',
          etag: '"v1"',
          'last-modified': 'Mon, 04 May 2026 00:00:00 GMT',
        })
        .end('<rss/>');
    });
    const { client } = recordingClient();
    const response = await client.request({ url: s.url('/feed'), trusted: true });
    expect(s.requests[0]?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(response.body.toString()).toBe('<rss/>');
    expect(response.headers['content-type']).toBe('text/xml');
    expect(response).toMatchObject({ status: 200, notModified: false, etag: '"v1"' });
    expect(response.lastModified).toBe('Mon, 04 May 2026 00:00:00 GMT');
  });

  it('sends conditional headers and reports 304 as notModified', async () => {
    const s = await serve((request, response) => {
      if (request.headers['if-none-match'] === '"v1"') response.writeHead(304).end();
      else response.writeHead(200, { etag: '"v1"' }).end('full');
    });
    const { client } = recordingClient();
    const response = await client.request({
      url: s.url('/x'),
      trusted: true,
      etag: '"v1"',
      lastModified: 'Sun, 03 May 2026 00:00:00 GMT',
    });
    expect(s.requests[0]?.headers['if-modified-since']).toBe('Sun, 03 May 2026 00:00:00 GMT');
    expect(response).toMatchObject({ status: 304, notModified: true, etag: '"v1"' });
    expect(response.body.length).toBe(0);
  });

  it('retries 500s with backoff, then throws a FetchError with the status', async () => {
    const s = await serve((_, response) => {
      response.writeHead(500).end('boom');
    });
    const { client, waits } = recordingClient({ retries: 2 });
    const error = await client.request({ url: s.url('/api'), trusted: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).status).toBe(500);
    expect((error as FetchError).message).toMatch(/after 3 attempts: the server is failing; try again later/);
    expect(s.requests.length).toBe(3);
    expect(waits).toEqual([375, 750]);
  });

  it('honours Retry-After (seconds) on 429 and succeeds', async () => {
    const s = await serve((_, response) => {
      if (s.requests.length === 1) response.writeHead(429, { 'retry-after': '1' }).end();
      else response.writeHead(200).end('ok');
    });
    const { client, waits, lines } = recordingClient();
    const response = await client.request({ url: s.url('/api'), trusted: true });
    expect(response.body.toString()).toBe('ok');
    expect(s.requests.length).toBe(2);
    expect(waits).toEqual([1000]);
    expect(lines[0]).toMatch(/retrying GET .* in 1000 ms \(HTTP 429, Retry-After 1 s\)/);
  });

  it('caps a long Retry-After', async () => {
    const s = await serve((_, response) => {
      if (s.requests.length === 1) response.writeHead(503, { 'retry-after': '3600' }).end();
      else response.writeHead(200).end('ok');
    });
    const { client, waits } = recordingClient({ backoff: { capMs: 5000 } });
    await client.request({ url: s.url('/api'), trusted: true });
    expect(waits).toEqual([5000]);
  });

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('2026-05-04T00:00:00Z');
    expect(parseRetryAfter('Mon, 04 May 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('does not retry a 404 and says what to do', async () => {
    const s = await serve((_, response) => {
      response.writeHead(404).end();
    });
    const { client } = recordingClient();
    await expect(client.request({ url: s.url('/gone'), trusted: true })).rejects.toThrow(
      /HTTP 404 .*check the URL/,
    );
    expect(s.requests.length).toBe(1);
  });

  it('times out a hanging server and retries it', async () => {
    const s = await serve(() => {
      // never answers
    });
    const { client, waits } = recordingClient({ timeoutMs: 150, retries: 1 });
    await expect(client.request({ url: s.url('/hang'), trusted: true })).rejects.toThrow(
      /no answer .* within 150 ms/,
    );
    expect(s.requests.length).toBe(2);
    expect(waits.length).toBe(1);
  });

  it('aborts a body larger than the cap without buffering it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const s = await serve((_, response) => {
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
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
    });
    const { client } = recordingClient({ maxBytes: 1024 * 1024 });
    const before = process.memoryUsage().rss;
    await expect(client.request({ url: s.url('/big'), trusted: true })).rejects.toThrow(
      /response larger than 1048576 bytes/,
    );
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('refuses an announced Content-Length over the cap before reading', async () => {
    const s = await serve((_, response) => {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      response.write('x');
    });
    const { client } = recordingClient({ maxBytes: 1000 });
    await expect(client.request({ url: s.url('/big'), trusted: true })).rejects.toThrow(
      /announced 10485760 bytes/,
    );
  });

  it('stops after 5 redirects', async () => {
    const s = await serve((request, response) => {
      const n = Number(request.path.slice(1)) || 0;
      response.writeHead(302, { location: `/${n + 1}` }).end();
    });
    const { client } = recordingClient();
    await expect(client.request({ url: s.url('/0'), trusted: true })).rejects.toThrow(
      /more than 5 redirects/,
    );
    expect(s.requests.length).toBe(6);
  });

  it('reports a refused connection at once, without retrying', async () => {
    const s = await serve(() => {});
    const url = s.url('/closed');
    await s.close();
    server = undefined;
    const { client, waits } = recordingClient({ retries: 3 });
    const error = await client.request({ url, trusted: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/could not reach .*nothing is listening there \(ECONNREFUSED/);
    // No network is not a hiccup: no retries, no waiting.
    expect(waits).toEqual([]);
  });
});
