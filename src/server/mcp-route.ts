// /mcp: the archive's MCP server over the Streamable HTTP transport, stateless (a fresh server and transport per
// request: the tools are read-only, so there is no session to keep). Before the SDK sees a request:
// - DNS rebinding: the Host must be a loopback name or the public site's host, and an Origin, when a browser sends
//   one, must be the public site's or the request's own (a page elsewhere cannot drive a local server);
// - the body is capped (413), counted while streaming when no Content-Length announces it;
// - text must be text (no NUL, UTF-8 only: 400); a batch holds at most MCP_MAX_BATCH messages whose estimated work
//   (results they may return) is at most MCP_MAX_WORK (413); each client address may send `perMinute` messages a
//   minute (429 with Retry-After); one request is worked on at a time, MCP_MAX_WAITING more wait (then 503); an answer over
//   MCP_MAX_ANSWER_BYTES is replaced by an error. Together they bound the memory an abusive client can make us hold.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createRateLimiter } from '../core/rate-limiter.js';
import { type Archive, createMcpServer } from '../reach/index.js';
import { clientAddress } from './client-address.js';
import { hasBadText, textGuard } from './guards.js';

export const MCP_MAX_BODY_BYTES = 256 * 1024;
/** JSON-RPC messages in one batch. */
export const MCP_MAX_BATCH = 10;
/** Results a batch may ask for in all (a search or a list costs its limit, an edition 25, anything else 1). */
export const MCP_MAX_WORK = 200;
/** Requests waiting for the one being worked on; more are answered 503 with Retry-After. */
export const MCP_MAX_WAITING = 8;
export const MCP_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface McpRouteOptions {
  archive: Archive;
  version: string;
  /** The public site's address (publish.baseUrl): its host and origin are accepted besides loopback. */
  publicUrl?: string | undefined;
  maxBodyBytes?: number;
  /** JSON-RPC messages one client address may send per minute. */
  perMinute?: number;
  trustProxy?: boolean;
}

/** JSON-RPC's own error shape, so an MCP client reads the refusal as one. */
function refuse(
  c: Context,
  status: 400 | 403 | 405 | 413 | 429 | 503,
  message: string,
  headers: Record<string, string> = {},
  code = -32600,
): Response {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, {
    'Cache-Control': 'no-store',
    ...headers,
  });
}

/** The results one JSON-RPC message may make us produce, estimated from its method and arguments. */
export function messageWork(message: unknown): number {
  const call = message as { method?: unknown; params?: { name?: unknown; arguments?: { limit?: unknown } } };
  if (call?.method !== 'tools/call') return 1;
  const limit = Number(call.params?.arguments?.limit);
  const asked = Number.isFinite(limit) && limit > 0 ? Math.min(limit, 100) : 20;
  switch (call.params?.name) {
    case 'search_items':
    case 'list_editions':
      return asked;
    case 'get_edition':
      return 25;
    default:
      return 1;
  }
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

  const perMinute = options.perMinute ?? 60;
  const limiter = createRateLimiter({ capacity: perMinute, refillMs: 60_000 / perMinute });
  // One request at a time: its tool calls share the database with every other route (PGlite is one session).
  let busy = false;
  const waiting: (() => void)[] = [];

  // POST only: a stateless server offers no standalone event stream (GET) and no session to end (DELETE).
  route.post('/', textGuard, async (c) => {
    const body = await c.req.json<unknown>().catch(() => undefined);
    if (body === undefined) return refuse(c, 400, 'Parse error: the body is not valid JSON.', {}, -32700);
    if (hasBadText(body)) return refuse(c, 400, 'The request holds a NUL or text that is not UTF-8.');
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length > MCP_MAX_BATCH) {
      return refuse(c, 413, `A batch holds at most ${MCP_MAX_BATCH} messages (got ${messages.length}).`);
    }
    const work = messages.reduce((sum: number, message) => sum + messageWork(message), 0);
    if (work > MCP_MAX_WORK) {
      return refuse(c, 413, `The batch asks for up to ${work} results; at most ${MCP_MAX_WORK} a request.`);
    }
    const decision = limiter.take(
      clientAddress(c, options.trustProxy ?? false),
      Math.min(messages.length, perMinute),
    );
    if (!decision.allowed) {
      return refuse(c, 429, 'Too many requests from your address; try again later.', {
        'Retry-After': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))),
      });
    }
    if (busy) {
      if (waiting.length >= MCP_MAX_WAITING) {
        return refuse(c, 503, 'The MCP server is busy; try again shortly.', { 'Retry-After': '1' });
      }
      // Handed the turn directly by the request before, so nobody slips in between.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    busy = true;
    try {
      return await answer(c, body);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy = false;
    }
  });

  type McpServer = import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
  type ToolsCallHandler = (request: unknown, extra: Record<string, unknown>) => Promise<unknown>;
  const newServer = async () => await createMcpServer(options.archive, { version: options.version });

  /**
   * A plain `tools/call` request (no task, no _meta) from a client that accepts the transport's JSON answer: given
   * to the SDK's own tools/call handler (the same request parsing, input and output validation, and error mapping)
   * without a transport, and its answer serialised once. Through the transport the answer was a string, a Response
   * (a well-formed copy, then bytes) and read back as text per message: most of what a batch of searches allocated
   * (bench mcp-abuse). Anything else goes through the transport.
   */
  async function callTool(raw: Request, message: unknown, server: McpServer): Promise<string | null> {
    const request = message as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
    const params = request?.params as { task?: unknown; _meta?: unknown } | undefined;
    if (
      typeof request !== 'object' ||
      request === null ||
      Array.isArray(request) ||
      request.jsonrpc !== '2.0' ||
      request.method !== 'tools/call' ||
      !(
        typeof request.id === 'string' ||
        (typeof request.id === 'number' && Number.isSafeInteger(request.id))
      ) ||
      typeof params !== 'object' ||
      params === null ||
      params.task !== undefined ||
      params._meta !== undefined
    ) {
      return null;
    }
    const accept = raw.headers.get('accept') ?? '';
    const type = raw.headers.get('content-type') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
    if (!type.includes('application/json')) return null;
    const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ToolsCallHandler> })
      ._requestHandlers;
    const handler = handlers?.get('tools/call');
    if (!handler) return null;
    const id = request.id;
    const abort = new AbortController();
    try {
      const result = await handler(message, {
        signal: abort.signal,
        requestId: id,
        sendNotification: async () => {},
        sendRequest: async () => {
          throw new Error('This server sends no requests to its clients.');
        },
      });
      return JSON.stringify({ result, jsonrpc: '2.0', id });
    } catch (error) {
      const { code, message: text, data } = error as { code?: unknown; message?: unknown; data?: unknown };
      return JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(code) ? code : -32603,
          message: typeof text === 'string' ? text : 'Internal error',
          ...(data !== undefined && { data }),
        },
      });
    }
  }

  /** One JSON-RPC message (or a whole batch) through `server` on a fresh stateless transport. */
  async function handle(raw: Request, body: unknown, server: McpServer): Promise<Response> {
    // Loaded on the first MCP request: `digest serve` without MCP clients never pays for the SDK.
    const { WebStandardStreamableHTTPServerTransport } = await import(
      '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(raw, { parsedBody: body });
    } finally {
      // With JSON responses the answer is complete here; closing frees the transport for the next message.
      await server.close();
    }
  }

  /**
   * A batch is answered one message at a time, yielding in between: its calls do not all wait on the database at
   * once, so other routes (/healthz, the site) get their turn between two of them.
   */
  async function answer(c: Context, body: unknown): Promise<Response> {
    if (!Array.isArray(body) || body.length < 2) {
      const response = await handle(c.req.raw, body, await newServer());
      if (response.body === null) return response;
      const text = await response.text();
      if (text.length > MCP_MAX_ANSWER_BYTES) {
        return refuse(c, 413, 'The answer would be too large; ask for fewer results.');
      }
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const answers: string[] = [];
    let size = 0;
    const server = await newServer();
    for (const message of body) {
      const called = await callTool(c.req.raw, message, server);
      if (called !== null) {
        size += called.length;
        if (size > MCP_MAX_ANSWER_BYTES) {
          return refuse(c, 413, 'The answer would be too large; ask for fewer results.');
        }
        answers.push(called);
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const response = await handle(c.req.raw, message, server);
      if (response.body !== null) {
        const text = await response.text();
        size += text.length;
        if (size > MCP_MAX_ANSWER_BYTES) {
          return refuse(c, 413, 'The answer would be too large; ask for fewer results.');
        }
        if (text) answers.push(text);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Notifications only: nothing to answer, as the transport says for them.
    if (answers.length === 0) return c.body(null, 202);
    // Bytes, not one joined string: joined, a batch's answer is a string large enough for V8's large-object space,
    // which only a full collection frees (bench mcp-abuse: the peak RSS of a flood of batches); a buffer's bytes are
    // freed with its small handle, which the next scavenge collects.
    const parts: Buffer[] = [];
    for (const [index, text] of answers.entries()) {
      parts.push(Buffer.from(index === 0 ? '[' : ','), Buffer.from(text));
    }
    parts.push(Buffer.from(']'));
    const bytes = Buffer.concat(parts);
    return c.body(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
    });
  }
  route.all('*', (c) => {
    c.header('Allow', 'POST');
    return refuse(c, 405, 'Use POST /mcp (Streamable HTTP).');
  });
  return route;
}
