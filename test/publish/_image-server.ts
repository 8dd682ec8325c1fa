// A loopback image host for the image tests: one real PNG, and the ways an "image" goes wrong in the wild.
import type { Edition } from '../../src/core/types.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { tinyPng } from './_images.js';

export const GOOD_PNG = tinyPng(3, 2);

/** Path → what the host answers. */
const ROUTES: Record<string, { status: number; type: string; body: () => Buffer }> = {
  '/good.png': { status: 200, type: 'image/png', body: () => GOOD_PNG },
  // An HTML page (a login wall, a CDN error page) served under an image name and type.
  '/page.png': {
    status: 200,
    type: 'image/png',
    body: () => Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script>Sign in</body></html>'),
  },
  // A real PNG header followed by 3 MB: over the 2 MB cap.
  '/huge.png': {
    status: 200,
    type: 'image/png',
    body: () => Buffer.concat([GOOD_PNG.subarray(0, 33), Buffer.alloc(3 * 1024 * 1024)]),
  },
  '/missing.png': { status: 404, type: 'text/plain', body: () => Buffer.from('not found') },
  '/vector.svg': {
    status: 200,
    type: 'image/svg+xml',
    body: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  },
};

export const IMAGE_PATHS = Object.keys(ROUTES);

export function startImageServer(): Promise<LoopbackServer> {
  return startLoopback((request, response) => {
    const route = ROUTES[request.path];
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    const body = route.body();
    response.writeHead(route.status, { 'content-type': route.type, 'content-length': body.length });
    response.end(body);
  });
}

/** The guarded client as the CLI makes it, allowed to reach this loopback host (as a test config would). */
export function imageClient() {
  return createHttpClient({ timeoutMs: 5000, maxBytes: 20 * 1024 * 1024, retries: 0, allowLoopback: true });
}

/** The edition with its items' images pointed at the image host, cycling through `paths`. */
export function withImages(edition: Edition, server: LoopbackServer, paths: string[]): Edition {
  return {
    ...edition,
    items: edition.items.map((item, index) => ({
      ...item,
      image: server.url(paths[index % paths.length]!),
    })),
  };
}
