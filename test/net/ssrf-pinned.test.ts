// The pinned client: addresses are checked where the connection is made, so a refusal never reaches a socket.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedUrlError, FetchError } from '../../src/core/errors.js';
import { createHttpClient, type HttpClientOptions } from '../../src/net/http-client.js';
import { type HostLookup, isAllowedAddress } from '../../src/net/ssrf-guard.js';

/** A loopback server that counts TCP connections (not just requests) and answers "hello". */
interface CountingServer {
  port: number;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

async function startCounting(
  handler: (path: string, response: import('node:http').ServerResponse) => void = (_, response) =>
    response.end('hello'),
): Promise<CountingServer> {
  const state = { connections: 0, requests: [] as string[] };
  const server: Server = createServer((request, response) => {
    state.requests.push(request.url ?? '/');
    handler(request.url ?? '/', response);
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const client = (options: Partial<HttpClientOptions> = {}) =>
  createHttpClient({
    timeoutMs: 2000,
    maxBytes: 1024 * 1024,
    retries: 2,
    backoff: { sleep: async () => {} },
    ...options,
  });

let home: CountingServer;
beforeAll(async () => {
  home = await startCounting();
});
afterAll(() => home.close());

// Every form an IPv6 address can carry 127.0.0.1 in.
const EMBEDDED_LOOPBACK = {
  'IPv4-compatible [::127.0.0.1]': '::127.0.0.1',
  'IPv4-mapped': '::ffff:127.0.0.1',
  'IPv4-translated (RFC 6145)': '::ffff:0:127.0.0.1',
  'NAT64 64:ff9b::/96': '64:ff9b::127.0.0.1',
  'NAT64 local-use 64:ff9b:1::/48': '64:ff9b:1::7f00:1',
  '6to4 2002::/16': '2002:7f00:1::1',
  'Teredo (obfuscated client 127.0.0.1)': '2001:0:4136:e378:8000:63bf:80ff:fffe',
};

describe('embedded IPv4 addresses', () => {
  it.each(Object.entries(EMBEDDED_LOOPBACK))(
    'refuses %s as a literal before connecting',
    async (_, address) => {
      const before = home.connections;
      const error = await client()
        .request({ url: `http://[${address}]:${home.port}/` })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedUrlError);
      expect((error as Error).message).toMatch(/\(loopback\), which is not a public address/);
      expect(home.connections).toBe(before);
    },
  );

  it.each(Object.entries(EMBEDDED_LOOPBACK))(
    'refuses %s answered by DNS before connecting',
    async (_, address) => {
      const before = home.connections;
      const lookup: HostLookup = async () => [{ address, family: 6 }];
      const error = await client({ lookup })
        .request({ url: `http://feed.example:${home.port}/` })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedUrlError);
      expect((error as Error).message).toContain(`refused http://feed.example:${home.port}/`);
      expect(home.connections).toBe(before);
    },
  );

  it('judges each form by the IPv4 address inside, so public ones pass', () => {
    expect(isAllowedAddress('::ffff:93.184.216.34')).toBe(true);
    expect(isAllowedAddress('64:ff9b::93.184.216.34')).toBe(true);
    expect(isAllowedAddress('2002:5db8:d822::1')).toBe(true);
    expect(isAllowedAddress('2001:0:4136:e378:8000:63bf:a247:27dd')).toBe(true); // client 93.184.216.34
    expect(isAllowedAddress('::10.0.0.1')).toBe(false);
    expect(isAllowedAddress('2002:a9fe:a9fe::')).toBe(false); // 169.254.169.254
    expect(isAllowedAddress('64:ff9b::c0a8:101')).toBe(false); // 192.168.1.1
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('::127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::127.0.0.1', false)).toBe(false);
  });
});

describe('resolve once, check every address, connect to a checked one', () => {
  it('refuses a host answering a public address first and a loopback one second; no request arrives', async () => {
    const lookup: HostLookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const before = home.connections;
    await expect(
      client({ lookup }).request({ url: `http://two-faced.example:${home.port}/` }),
    ).rejects.toThrow(/two-faced\.example resolves to 127\.0\.0\.1 \(loopback\)/);
    expect(home.connections).toBe(before);
  });

  it('asks the resolver once per connection and connects to the address it checked (no rebinding window)', async () => {
    // A rebinding resolver: the first answer is allowed, every later one is private.
    let calls = 0;
    const lookup: HostLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const response = await client({ lookup, allowLoopback: true }).request({
      url: `http://rebind.example:${home.port}/pinned`,
    });
    expect(response.body.toString()).toBe('hello');
    expect(calls).toBe(1);
    expect(home.requests.at(-1)).toBe('/pinned');
  });

  it('a rebinding resolver that turns private on its first answer is refused with no connection', async () => {
    let calls = 0;
    const lookup: HostLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '10.0.0.1' : '127.0.0.1', family: 4 }];
    };
    const before = home.connections;
    await expect(
      client({ lookup, allowLoopback: true }).request({ url: `http://rebind.example:${home.port}/` }),
    ).rejects.toBeInstanceOf(BlockedUrlError);
    expect(home.connections).toBe(before);
    expect(calls).toBe(1);
  });

  it('checks every redirect hop at connect time: a redirect to a name resolving home is refused', async () => {
    const target = await startCounting();
    const origin = await startCounting((path, response) => {
      if (path === '/to-name') response.writeHead(302, { location: `http://inside.example:${target.port}/` });
      else if (path === '/to-compatible')
        response.writeHead(302, { location: `http://[::127.0.0.1]:${target.port}/` });
      response.end();
    });
    try {
      const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
      const http = client({ lookup });
      for (const path of ['/to-name', '/to-compatible']) {
        const error = await http
          .request({ url: `http://127.0.0.1:${origin.port}${path}`, trusted: true })
          .catch((e: unknown) => e);
        expect(error, path).toBeInstanceOf(BlockedUrlError);
      }
      expect(origin.requests).toEqual(['/to-name', '/to-compatible']);
      expect(target.connections).toBe(0);
    } finally {
      await origin.close();
      await target.close();
    }
  });

  it('lets a configured (trusted) URL resolve to loopback, as configured sources may point anywhere', async () => {
    const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const response = await client({ lookup }).request({
      url: `http://my-feeds.internal:${home.port}/trusted`,
      trusted: true,
    });
    expect(response.body.toString()).toBe('hello');
  });
});

describe('the body cap while streaming', () => {
  let bodies: CountingServer;
  beforeAll(async () => {
    const zeros = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    bodies = await startCounting((path, response) => {
      if (path === '/endless') {
        // Chunked, no content-length, never ends by itself.
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (response.write(chunk)) {}
        };
        response.on('drain', pump);
        pump();
      } else if (path === '/bomb') {
        response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(zeros.length) });
        response.end(zeros);
      } else response.end('small');
    });
  });
  afterAll(() => bodies.close());

  it('cuts off an endless chunked body at the cap', async () => {
    const error = await client({ maxBytes: 256 * 1024 })
      .request({ url: `http://127.0.0.1:${bodies.port}/endless`, trusted: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as Error).message).toMatch(/response larger than 262144 bytes/);
  });

  it('counts decoded bytes, so a gzip bomb small on the wire is cut off too', async () => {
    const before = process.memoryUsage().rss;
    const error = await client({ maxBytes: 1024 * 1024 })
      .request({ url: `http://127.0.0.1:${bodies.port}/bomb`, trusted: true })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/response larger than 1048576 bytes/);
    // 64 MB decoded was never held: growth stays far below it.
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });
});
