// Puts a Hono app on a real socket, and takes it down again without cutting requests in flight.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

export interface RunningServer {
  /** Where it listens, e.g. http://127.0.0.1:8080/ (the real port when 0 was asked for). */
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`), then drops what is left. */
  close(graceMs?: number): Promise<void>;
}

/** `app` is a Hono app (its `fetch` also receives the Node bindings, which getConnInfo reads). */
export async function startServer(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  options: { host: string; port: number },
): Promise<RunningServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // A slow client cannot hold a connection open forever (slowloris); keep-alive stays short.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    close(graceMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
