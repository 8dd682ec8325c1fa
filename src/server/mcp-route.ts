// /mcp: the archive's MCP server over the Streamable HTTP transport, stateless (a fresh server and transport per
// request: the tools are read-only, so there is no session to keep). Before the SDK sees a request:
// - DNS rebinding: the Host must be a loopback name or the public site's host, and an Origin, when a browser sends
//   one, must be the public site's or the request's own (a page elsewhere cannot drive a local server);
// - the body is capped (413), counted while streaming when no Content-Length announces it;
// - text must be text (no NUL, UTF-8 only: 400); a batch is flat (JSON-RPC 2.0: an array of message objects, so an
//   array inside it is refused with 400 before any work — nested, 10 arrays of 100 calls were 1,000 calls charged as
//   10 messages); it holds at most MCP_MAX_BATCH messages whose estimated work (results they may return) is at most
//   MCP_MAX_WORK (413); each client address may send `perMinute` messages a minute, every call charged (the
//   server's one 429, guards.ts); one request is worked on at a time, MCP_MAX_WAITING more wait (then 503); an answer over
//   MCP_MAX_ANSWER_BYTES is replaced by an error (mcp-answer.ts, which answers an admitted request). Together they
//   bound the memory an abusive client can make us hold.
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Archive } from '../api/index.js';
import type { RateLimitStore, SharedRateLimiter } from '../core/rate-limiter.js';
import { clientGroup } from './client-address.js';
import { hasBadText, limitsIn, textGuard, tooManyRequests } from './guards.js';
import { createMcpAnswer } from './mcp-answer.js';

export const MCP_MAX_BODY_BYTES = 256 * 1024;
/** JSON-RPC messages in one batch. */
export const MCP_MAX_BATCH = 10;
/** Results a batch may ask for in all (a search or a list costs its limit, an edition 25, anything else 1). */
export const MCP_MAX_WORK = 200;
/** Requests waiting for the one being worked on; more are answered 503 with Retry-After. */
export const MCP_MAX_WAITING = 8;

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
  /** The limiter's clock in ms: the digest's (default: the wall clock). */
  now?: (() => number) | undefined;
  /** Where the limits' buckets live (the database instances share); default: this process's memory, on `now`. */
  rateLimits?: RateLimitStore | undefined;
}

/** JSON-RPC's own error shape, so an MCP client reads the refusal as one. */
function refuse(
  c: Context,
  {
    status,
    message,
    headers = {},
    code = -32600,
  }: {
    status: 400 | 403 | 405 | 413 | 503;
    message: string;
    headers?: Record<string, string>;
    code?: number;
  },
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
  const maxBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  const route = new Hono();
  route.use('*', hostGuard(options.publicUrl));
  route.use(
    '*',
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) =>
        refuse(c, { status: 413, message: `The request body is larger than ${maxBytes} bytes.` }),
    }),
  );
  const perMinute = options.perMinute ?? 60;
  const limiter = limitsIn(options).limiter('mcp', { capacity: perMinute, refillMs: 60_000 / perMinute });
  const admit = createAdmission(perMinute, options.trustProxy ?? false, limiter);
  const answer = createMcpAnswer({ archive: options.archive, version: options.version, maxBytes, refuse });
  // One request at a time: its tool calls share the database with every other route (PGlite is one session).
  const turns = createTurns(MCP_MAX_WAITING);

  // POST only: a stateless server offers no standalone event stream (GET) and no session to end (DELETE).
  route.post('/', textGuard, async (c) => {
    const body = await c.req.json<unknown>().catch(() => undefined);
    const refused = await admit(c, body);
    if (refused) return refused;
    if (!(await turns.enter())) {
      return refuse(c, {
        status: 503,
        message: 'The MCP server is busy; try again shortly.',
        headers: { 'Retry-After': '1' },
      });
    }
    try {
      return await answer(c, body);
    } finally {
      turns.leave();
    }
  });
  route.all('*', (c) => {
    c.header('Allow', 'POST');
    return refuse(c, { status: 405, message: 'Use POST /mcp (Streamable HTTP).' });
  });
  return route;
}

/**
 * DNS rebinding: the Host must be a loopback name or the public site's host, and an Origin, when sent, must be the
 * public site's or the request's own.
 */
function hostGuard(publicAddress: string | undefined): MiddlewareHandler {
  const publicUrl = publicAddress ? new URL(publicAddress) : null;
  const allowedHosts = new Set([...LOOPBACK_HOSTS, ...(publicUrl ? [publicUrl.hostname] : [])]);
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    const hostname = hostnameOf(host);
    if (!hostname || !allowedHosts.has(hostname)) {
      return refuse(c, { status: 403, message: 'This MCP endpoint does not answer for that Host.' });
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== publicUrl?.origin) {
      let sameOrigin = false;
      try {
        sameOrigin = new URL(origin).host === host;
      } catch {}
      if (!sameOrigin)
        return refuse(c, {
          status: 403,
          message: 'This MCP endpoint does not answer pages of other origins.',
        });
    }
    await next();
  };
}

/**
 * The checks a parsed body passes before any work: valid JSON and text, the batch's size and estimated work, and
 * the client's rate. Returns the refusal, or null when the body is admitted.
 */
function createAdmission(perMinute: number, trustProxy: boolean, limiter: SharedRateLimiter) {
  return async (c: Context, body: unknown): Promise<Response | null> => {
    if (body === undefined)
      return refuse(c, { status: 400, message: 'Parse error: the body is not valid JSON.', code: -32700 });
    if (hasBadText(body))
      return refuse(c, { status: 400, message: 'The request holds a NUL or text that is not UTF-8.' });
    const messages = Array.isArray(body) ? body : [body];
    if (messages.some((message) => Array.isArray(message))) {
      return refuse(c, {
        status: 400,
        message: 'A JSON-RPC batch is flat: an array of messages, never an array inside one.',
      });
    }
    if (messages.length > MCP_MAX_BATCH) {
      return refuse(c, {
        status: 413,
        message: `A batch holds at most ${MCP_MAX_BATCH} messages (got ${messages.length}).`,
      });
    }
    const work = messages.reduce((sum: number, message) => sum + messageWork(message), 0);
    if (work > MCP_MAX_WORK) {
      return refuse(c, {
        status: 413,
        message: `The batch asks for up to ${work} results; at most ${MCP_MAX_WORK} a request.`,
      });
    }
    const decision = await limiter.take(clientGroup(c, trustProxy), Math.min(messages.length, perMinute));
    return decision.allowed ? null : tooManyRequests(c, decision.retryAfterMs);
  };
}

/** One holder at a time, `maxWaiting` more in line; `enter` is false when the line is full. */
function createTurns(maxWaiting: number) {
  let busy = false;
  const waiting: (() => void)[] = [];
  return {
    async enter(): Promise<boolean> {
      if (busy) {
        if (waiting.length >= maxWaiting) return false;
        // Handed the turn directly by the request before, so nobody slips in between.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      busy = true;
      return true;
    },
    leave(): void {
      const next = waiting.shift();
      if (next) next();
      else busy = false;
    },
  };
}
