// `/r/<token>`: counted links. GET and HEAD answer 302 to where the use case says — the item's stored
// link, or the edition's page or the site's home for a bad token — with nothing from the request in the answer.
// The count is taken in memory by the use case; this route never waits for the database to write it.
import { Hono } from 'hono';
import type { FollowAnswer, FollowRequest } from '../subscribers/index.js';
import { clientGroup } from './client-address.js';
import type { RequestVariables } from './request-log.js';

/** The route, as the request log and the metrics label it (its 302s get no log line: request-log.ts). */
export const CLICK_ROUTE = '/r/:token';

/** Longer than any token we issue: anything longer is read as no token. */
const MAX_TOKEN = 160;

export interface ClickRouteOptions {
  follow(request: FollowRequest): Promise<FollowAnswer>;
  trustProxy: boolean;
}

/** The same link with a slash after it (a mail client or a reader adds one): the same answer. */
const CLICK_ROUTE_SLASH = `${CLICK_ROUTE}/`;
export const CLICK_ROUTES = [CLICK_ROUTE, CLICK_ROUTE_SLASH];

export function clickRoutes(options: ClickRouteOptions): Hono<{ Variables: RequestVariables }> {
  const app = new Hono<{ Variables: RequestVariables }>();
  // A link is followed with GET (HEAD: a scanner's look); anything else is not a reader following it.
  app.on(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], [...CLICK_ROUTES], (c) =>
    c.json({ error: 'method-not-allowed' }, 405, { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' }),
  );
  app.on(['GET', 'HEAD'], [...CLICK_ROUTES], async (c) => {
    const token = c.req.param('token') ?? '';
    const answer = await options.follow({
      token: token.length <= MAX_TOKEN ? token : '',
      method: c.req.method,
      userAgent: c.req.header('user-agent'),
      source: clientGroup(c, options.trustProxy),
    });
    // Never cached (each fetch is a count); the item's site learns nothing of the token.
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(answer.location, 302);
  });
  return app;
}
