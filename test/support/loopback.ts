// A loopback HTTP server for tests: serves recorded real responses, counts requests. Never the network.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type LoopbackHandler = (request: LoopbackRequest, response: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  url(path: string): string;
  requests: LoopbackRequest[];
  close(): Promise<void>;
}

export async function startLoopback(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: LoopbackRequest[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const parsed = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const request: LoopbackRequest = {
      method: incoming.method ?? 'GET',
      url: incoming.url ?? '/',
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    try {
      await handler(request, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves fixed bodies by path: `{ '/feed.xml': { body, type } }`; anything else is 404. */
export function staticRoutes(
  routes: Record<
    string,
    { body: string | Buffer; type?: string; status?: number; headers?: Record<string, string> }
  >,
): LoopbackHandler {
  return (request, response) => {
    const route = routes[request.path];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(route.status ?? 200, {
        'content-type': route.type ?? 'application/octet-stream',
        ...route.headers,
      })
      .end(route.body);
  };
}

/** A loopback port free a moment ago (taken, then given back): for a process that must be told its port, or one
 * nothing listens on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
