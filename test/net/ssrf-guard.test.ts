import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedUrlError } from '../../src/core/errors.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { assertPublicUrl, type HostLookup, isAllowedAddress } from '../../src/net/ssrf-guard.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const publicLookup: HostLookup = async () => [{ address: '93.184.216.34', family: 4 }];
const privateLookup: HostLookup = async () => [
  { address: '93.184.216.34', family: 4 },
  { address: '10.1.2.3', family: 4 },
];

describe('assertPublicUrl', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.0.0.5/admin',
    'http://172.16.3.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.1/',
  ])('refuses %s', async (url) => {
    await expect(assertPublicUrl(url, { lookup: publicLookup })).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', 'gopher://x/'])(
    'refuses the scheme of %s',
    async (url) => {
      await expect(assertPublicUrl(url, { lookup: publicLookup })).rejects.toThrow(/only http and https/);
    },
  );

  it('refuses a host name when any of its addresses is private', async () => {
    await expect(assertPublicUrl('https://rebind.test/', { lookup: privateLookup })).rejects.toThrow(
      /10\.1\.2\.3 \(private\)/,
    );
  });

  it('lets a public host name through without connecting', async () => {
    const url = await assertPublicUrl('https://example.com/feed', { lookup: publicLookup });
    expect(url.hostname).toBe('example.com');
  });

  it('allowLoopback lets loopback through and nothing else', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:8080/', { allowLoopback: true })).resolves.toBeInstanceOf(
      URL,
    );
    await expect(assertPublicUrl('http://[::1]/', { allowLoopback: true })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl('http://10.0.0.1/', { allowLoopback: true })).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
    await expect(assertPublicUrl('http://169.254.169.254/', { allowLoopback: true })).rejects.toBeInstanceOf(
      BlockedUrlError,
    );
  });

  it('classifies addresses', () => {
    expect(isAllowedAddress('93.184.216.34')).toBe(true);
    expect(isAllowedAddress('2606:4700::1111')).toBe(true);
    expect(isAllowedAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isAllowedAddress('not-an-ip')).toBe(false);
  });
});

describe('HTTP client SSRF checks', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopback((request, response) => {
      if (request.path === '/to-metadata') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (request.path === '/to-private') {
        response.writeHead(301, { location: 'http://10.0.0.1/feed' }).end();
      } else if (request.path === '/same-origin') {
        response.writeHead(302, { location: '/feed' }).end();
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      }
    });
  });
  afterAll(() => server.close());

  const client = (allowLoopback = false) =>
    createHttpClient({ timeoutMs: 2000, maxBytes: 1024, retries: 0, allowLoopback });

  it('refuses an untrusted loopback URL before connecting', async () => {
    const before = server.requests.length;
    await expect(client().request({ url: server.url('/feed') })).rejects.toBeInstanceOf(BlockedUrlError);
    expect(server.requests.length).toBe(before);
  });

  it('refuses untrusted literal-IP tricks pointing home', async () => {
    const port = new URL(server.origin).port;
    for (const host of ['2130706433', '0x7f.1', '[::1]']) {
      await expect(client().request({ url: `http://${host}:${port}/feed` })).rejects.toBeInstanceOf(
        BlockedUrlError,
      );
    }
  });

  it('lets loopback through with allowLoopback', async () => {
    const response = await client(true).request({ url: server.url('/feed') });
    expect(response.body.toString()).toBe('hello');
  });

  it('refuses a trusted URL redirecting to a private or metadata address', async () => {
    await expect(client().request({ url: server.url('/to-metadata'), trusted: true })).rejects.toThrow(
      /169\.254\.169\.254.*linkLocal/,
    );
    await expect(client(true).request({ url: server.url('/to-private'), trusted: true })).rejects.toThrow(
      /10\.0\.0\.1 \(private\)/,
    );
  });

  it('follows a same-origin redirect of a trusted URL', async () => {
    const response = await client().request({ url: server.url('/same-origin'), trusted: true });
    expect(response.url).toBe(server.url('/feed'));
    expect(response.body.toString()).toBe('hello');
  });
});
