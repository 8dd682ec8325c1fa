// Guards for the routes that take input: same-origin POSTs, a body size cap, per-key rate limits.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';

/** The shape of subscribers/rate-limiter's limiter that the guard uses. */
export interface KeyedLimiter {
  take(key: string): { allowed: true } | { allowed: false; retryAfterMs: number };
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
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json({ error: 'payload-too-large', message: `The body is larger than ${maxBytes} bytes.` }, 413),
  });
}

/** 429 with Retry-After once `key(c)` (an IP, an inbox) has used its budget. */
export function rateLimit(limiter: KeyedLimiter, key: (c: Context) => string): MiddlewareHandler {
  return async (c, next) => {
    const decision = limiter.take(key(c));
    if (!decision.allowed) {
      return c.json({ error: 'too-many-requests', message: 'Too many requests; try again later.' }, 429, {
        'Retry-After': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))),
      });
    }
    await next();
  };
}
