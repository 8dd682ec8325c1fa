// One JSON line per request, a request id on every response, and the request metrics.

import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { systemClock } from '../core/clock.js';
import { clientAddress } from './client-address.js';
import type { DigestMetrics } from './metrics.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestLogOptions {
  metrics: DigestMetrics;
  /** Receives one JSON line (no newline) per request. */
  log: (line: string) => void;
  trustProxy: boolean;
  now?: () => number;
  /**
   * Routes whose answers get no line unless they fail (5xx); their metrics are kept. /r/: a line per click would name
   * the reader's address beside the link they followed, which the aggregate counts never keep.
   */
  quietRoutes?: readonly string[];
}

export type RequestVariables = { requestId: string };

/** The route label: the registered route, with the site's catch-all named "site" (no unbounded label values). */
function routeLabel(path: string): string {
  return path === '/*' || path === '*' ? 'site' : path;
}

/**
 * The path as logged: a counted link's token (and a reader's part of it) stands for who was mailed what, so no line
 * keeps it, whatever the answer was (a 404 of a mangled link, a 405 of a POST, a 5xx).
 */
export function withoutToken(path: string): string {
  return path.replace(/^\/r\/[^/]*/, '/r/-');
}

export function requestLog(options: RequestLogOptions): MiddlewareHandler<{ Variables: RequestVariables }> {
  const now = options.now ?? (() => performance.now());
  return async (c, next) => {
    const started = now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    try {
      await next();
    } finally {
      const seconds = (now() - started) / 1000;
      const status = c.res.status;
      c.res.headers.set('X-Request-Id', requestId);
      const route = routeLabel(routePath(c));
      options.metrics.httpRequests.inc({ route, method: c.req.method, status: String(status) });
      options.metrics.httpDuration.observe({ route }, seconds);
      const quiet = status < 500 && options.quietRoutes?.includes(route) === true;
      if (!quiet)
        options.log(
          JSON.stringify({
            time: systemClock.now().toISOString(),
            level: status >= 500 ? 'error' : 'info',
            msg: 'request',
            requestId,
            method: c.req.method,
            path: withoutToken(c.req.path),
            route,
            status,
            durationMs: Math.round(seconds * 100_000) / 100,
            bytes: c.res.headers.has('content-length') ? Number(c.res.headers.get('content-length')) : null,
            ip: clientAddress(c, options.trustProxy),
            userAgent: c.req.header('user-agent') ?? null,
          }),
        );
    }
  };
}
