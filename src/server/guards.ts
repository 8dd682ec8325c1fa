// Guards for the routes that take input: same-origin POSTs, a body size cap, text that is text (no NUL, UTF-8 only),
// per-key rate limits.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { memoryRateLimitStore, type RateLimitStore } from '../core/rate-limiter.js';

/** The shape of core/rate-limiter's limiter that the guard uses. */
export interface KeyedLimiter {
  take(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }>;
}

/** The routes' rate limits: in the given store, or in memory on `now`'s clock. */
export function limitsIn(options: {
  rateLimits?: RateLimitStore | undefined;
  now?: (() => number) | undefined;
}): RateLimitStore {
  return options.rateLimits ?? memoryRateLimitStore(options.now);
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origins a page of this site posts from: the public base URL's origin (plus any given). */
export function allowedOrigins(baseUrl: string, extra: string[] = []): Set<string> {
  return new Set([new URL(baseUrl).origin, ...extra.map((origin) => new URL(origin).origin)]);
}

/**
 * A POST (PUT, PATCH, DELETE) must carry an Origin of this site: browsers send it on every cross-site and
 * same-site POST, so a missing or foreign one is a forged request → 403. Not for the RFC 8058 one-click
 * unsubscribe endpoint: mail providers POST it from their servers without an Origin (the token authenticates it).
 */
export function originCheck(origins: Set<string>): MiddlewareHandler {
  return async (c, next) => {
    if (UNSAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (!origin || !origins.has(origin)) {
        return c.json(
          { error: 'forbidden', message: 'This request must come from a page of this site.' },
          403,
        );
      }
    }
    await next();
  };
}

/** Refuses bodies over `maxBytes` with 413, whether announced by Content-Length or streamed without one. */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    c.json({ error: 'payload-too-large', message: `The body is larger than ${maxBytes} bytes.` }, 413);
  const streamed = honoBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    if (!hasBody(c)) return next();
    const length = c.req.header('content-length');
    // Announced: checked from the headers alone, so the route reads the body straight from the socket (see hasBody).
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length || '0', 10) > maxBytes ? tooLarge(c) : next();
    }
    return streamed(c, next);
  };
}

/**
 * Whether the request carries a body. Served by Node (@hono/node-server), every request but a GET or HEAD carries
 * one, and asking its Request would build that Request and a web stream over the socket just to say so — a few times
 * what reading a small form costs, on every subscribe; the body read later comes straight from the socket instead.
 */
function hasBody(c: Context): boolean {
  const fromNode = typeof c.env === 'object' && c.env !== null && 'incoming' in c.env;
  if (fromNode) return c.req.method !== 'GET' && c.req.method !== 'HEAD';
  return c.req.raw.body !== null;
}

/** The Retry-After value for a wait: whole seconds, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): string {
  return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/**
 * The one 429 every route family answers with (the API, the subscriber routes, /mcp): one JSON shape, Retry-After,
 * not stored by caches; `headers` adds the family's own (the API's CORS).
 */
export function tooManyRequests(
  c: Context,
  retryAfterMs: number,
  headers: Record<string, string> = {},
): Response {
  return c.json({ error: 'too-many-requests', message: 'Too many requests; try again later.' }, 429, {
    'Cache-Control': 'no-store',
    ...headers,
    'Retry-After': retryAfterSeconds(retryAfterMs),
  });
}

/** The 429 above once `key(c)` (an IP, an inbox) has used its budget. */
export function rateLimit(
  limiter: KeyedLimiter,
  key: (c: Context) => string,
  headers: Record<string, string> = {},
): MiddlewareHandler {
  return async (c, next) => {
    const decision = await limiter.take(key(c));
    if (!decision.allowed) return tooManyRequests(c, decision.retryAfterMs, headers);
    await next();
  };
}

/** A NUL, or half of a UTF-16 surrogate pair (what invalid UTF-8 or a lone \\uD800 in JSON decodes to). */
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when any string in `value` (at any depth: arrays, object keys and values) holds a NUL or a lone surrogate.
 * A loop over a stack, not recursion: a body nested 100,000 deep (which JSON.parse accepts) is walked to the end
 * without growing the call stack.
 */
export function hasBadText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (BAD_TEXT.test(next)) return true;
    } else if (Array.isArray(next)) {
      for (const entry of next) stack.push(entry);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, entry] of Object.entries(next)) {
        if (BAD_TEXT.test(key)) return true;
        stack.push(entry);
      }
    }
  }
  return false;
}

/** Percent-decodes strictly: null when an escape is malformed or the bytes are not UTF-8. */
function decodeStrict(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a body is refused (a NUL, bytes that are not UTF-8, such a field in a form or JSON), or null. */
export function badBody(bytes: Uint8Array, contentType: string): string | null {
  if (bytes.includes(0)) return 'a NUL byte';
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return 'bytes that are not UTF-8';
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    for (const pair of text.split('&')) {
      const decoded = decodeStrict(pair);
      if (decoded === null || BAD_TEXT.test(decoded))
        return 'a form field that is not UTF-8 text without NUL';
    }
  } else if (/\bjson\b/i.test(contentType)) {
    try {
      if (hasBadText(JSON.parse(text))) return 'a JSON string with a NUL or a lone surrogate';
    } catch {
      // Not JSON: the route says so in its own words.
    }
  }
  return null;
}

function refuseText(c: Context, where: string, what: string): Response {
  return c.json(
    {
      error: 'invalid-input',
      field: where,
      message: `The ${where} holds ${what}; send UTF-8 text without NUL.`,
    },
    400,
    { 'Cache-Control': 'no-store' },
  );
}

/**
 * Every request: a path or query with a NUL, a malformed percent-escape or bytes that are not UTF-8 is refused with
 * 400 before any route (and so before any database) sees it.
 */
export function urlTextGuard(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    const path = query < 0 ? url.slice(start) : url.slice(start, query);
    const decodedPath = decodeStrict(path.replace(/\+/g, '%2B'));
    if (decodedPath === null || BAD_TEXT.test(decodedPath)) return refuseText(c, 'path', 'invalid text');
    if (query >= 0) {
      for (const pair of url.slice(query + 1).split('&')) {
        const decoded = decodeStrict(pair);
        if (decoded === null || BAD_TEXT.test(decoded)) return refuseText(c, 'query', 'invalid text');
      }
    }
    await next();
  };
}

/** A body with a NUL or text that is not UTF-8 → 400. Reads the body whole: use it after a size cap. */
export const textGuard: MiddlewareHandler = async (c, next) => {
  if (hasBody(c)) {
    const bytes = await c.req.bytes();
    const problem = badBody(bytes, c.req.header('content-type') ?? '');
    if (problem) return refuseText(c, 'body', problem);
    // Checked UTF-8: the route's json()/text() read this instead of decoding the bytes again.
    // (Hono keeps promises in its body cache, whatever its type says.)
    const cache = c.req.bodyCache as Record<string, unknown>;
    cache.text ??= Promise.resolve(utf8.decode(bytes));
  }
  await next();
};

/** Compares a given secret with the expected one in constant time (digests of equal length). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
