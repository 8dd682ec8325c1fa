// /mcp: the archive's MCP server over the Streamable HTTP transport, stateless (a fresh server and transport per
// request: the tools are read-only, so there is no session to keep). Before the SDK sees a request:
// - DNS rebinding: the Host must be a loopback name or the public site's host, and an Origin, when a browser sends
//   one, must be the public site's or the request's own (a page elsewhere cannot drive a local server);
// - the body is capped (413), counted while streaming when no Content-Length announces it.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Archive } from '../app/api.js';

export const MCP_MAX_BODY_BYTES = 256 * 1024;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface McpRouteOptions {
  archive: Archive;
  version: string;
  /** The public site's address (publish.baseUrl): its host and origin are accepted besides loopback. */
  publicUrl?: string | undefined;
  maxBodyBytes?: number;
}

/** JSON-RPC's own error shape, so an MCP client reads the refusal as one. */
function refuse(c: Context, status: 403 | 405 | 413, message: string): Response {
  return c.json({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }, status, {
    'Cache-Control': 'no-store',
  });
}

function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

export function createMcpRoute(options: McpRouteOptions): Hono {
  const publicUrl = options.publicUrl ? new URL(options.publicUrl) : null;
  const allowedHosts = new Set([...LOOPBACK_HOSTS, ...(publicUrl ? [publicUrl.hostname] : [])]);
  const maxBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  const route = new Hono();

  route.use('*', async (c, next) => {
    const host = c.req.header('host') ?? '';
    const hostname = hostnameOf(host);
    if (!hostname || !allowedHosts.has(hostname)) {
      return refuse(c, 403, 'This MCP endpoint does not answer for that Host.');
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== publicUrl?.origin) {
      let sameOrigin = false;
      try {
        sameOrigin = new URL(origin).host === host;
      } catch {}
      if (!sameOrigin) return refuse(c, 403, 'This MCP endpoint does not answer pages of other origins.');
    }
    await next();
  });

  route.use(
    '*',
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) => refuse(c, 413, `The request body is larger than ${maxBytes} bytes.`),
    }),
  );

  // POST only: a stateless server offers no standalone event stream (GET) and no session to end (DELETE).
  route.post('/', async (c) => {
    // Loaded on the first MCP request: `digest serve` without MCP clients never pays for the SDK.
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('../app/mcp.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]);
    const server = createMcpServer(options.archive, { version: options.version });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // With JSON responses the answer is complete here; closing frees the per-request server.
      await server.close();
    }
  });
  route.all('*', (c) => {
    c.header('Allow', 'POST');
    return refuse(c, 405, 'Use POST /mcp (Streamable HTTP).');
  });
  return route;
}
