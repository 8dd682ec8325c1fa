// POST /subscribe, GET+POST /confirm, GET+POST /unsubscribe (RFC 8058 one-click), GET+POST /preferences (the
// reader's own edition, behind the signed link of every mail) and POST /webhooks/bounce. The routes parse, guard
// (Origin, size, text, rate) and call the subscription use cases; the answers never say who is subscribed. A GET
// never changes anything: the confirm and unsubscribe links open a page with a button.
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { Digest } from '../compose/index.js';
import { createRateLimiter } from '../core/rate-limiter.js';
import { renderSubscriberPage, type SubscriberPage, subscriptionSettings } from '../subscribers/index.js';
import { clientAddress } from './client-address.js';
import { allowedOrigins, bodyLimit, originCheck, textGuard } from './guards.js';
import type { RequestVariables } from './request-log.js';

type RoutesEnv = { Variables: RequestVariables };

/** A subscribe form or a one-click POST is a few hundred bytes. */
export const MAX_FORM_BYTES = 8 * 1024;
const LINK_REQUESTS_PER_MINUTE = 120;
const WEBHOOK_REQUESTS_PER_MINUTE = 600;
const NO_STORE = { 'Cache-Control': 'no-store' };

export interface SubscriberRoutesOptions {
  digest: Pick<Digest, 'subscriptions' | 'deps' | 'readerPreferences'>;
  trustProxy: boolean;
  /** The limiters' clock (tests). */
  now?: () => number;
}

type Fields = Record<string, unknown>;

/** The routes, or null when no base URL is configured (no link could be mailed, no Origin checked). */
export function subscriberRoutes(options: SubscriberRoutesOptions): Hono<RoutesEnv> | null {
  const settings = subscriptionSettings(options.digest.deps.config);
  if (!settings) return null;
  const use = options.digest.subscriptions;
  const ip = (c: Context) => clientAddress(c, options.trustProxy);
  const limiter = (perMinute: number) =>
    createRateLimiter({
      capacity: perMinute,
      refillMs: 60_000 / perMinute,
      ...(options.now ? { now: options.now } : {}),
    });
  const limits = {
    subscribe: limiter(settings.perMinute),
    links: limiter(LINK_REQUESTS_PER_MINUTE),
    webhook: limiter(WEBHOOK_REQUESTS_PER_MINUTE),
  };
  const page = (c: Context, status: 200 | 400 | 429 | 503, content: SubscriberPage) =>
    c.html(renderSubscriberPage(content, { siteName: settings.siteName, root: settings.baseUrl }), status, {
      ...NO_STORE,
    });
  /** null when allowed; else the 429 in the client's format. */
  const limited = (c: Context, which: keyof typeof limits, json: boolean): Response | null => {
    const decision = limits[which].take(ip(c));
    if (decision.allowed) return null;
    c.header('Retry-After', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
    return json
      ? c.json({ error: 'too-many-requests', message: 'Too many requests; try again later.' }, 429, NO_STORE)
      : page(c, 429, { kind: 'too-many-requests' });
  };

  const app = new Hono<RoutesEnv>();
  const sameOrigin = originCheck(allowedOrigins(settings.origin));
  /** The per-address limit, before the body is read: a refused request costs no parsing. */
  const limit =
    (which: keyof typeof limits, json?: boolean): MiddlewareHandler<RoutesEnv> =>
    async (c, next) => {
      const blocked = limited(c, which, json ?? wantsJson(c));
      if (blocked) return blocked;
      await next();
    };
  // The text check reads the body whole, so it comes after the size cap.
  const body = (maxBytes = MAX_FORM_BYTES) => [bodyLimit(maxBytes), textGuard] as const;

  app.post('/subscribe', sameOrigin, limit('subscribe'), ...body(), async (c) => {
    const json = wantsJson(c);
    const fields = await readFields(c);
    if (!fields) return unsupported(c);
    if (!settings.canMail) {
      return c.json(
        { error: 'unavailable', message: 'Subscribing is not set up on this site (no SMTP server).' },
        503,
        NO_STORE,
      );
    }
    const outcome = await use.request({
      email: fields.email,
      honeypot: fields.website,
      ip: ip(c),
      preferences: fields,
    });
    if (!outcome.ok && 'busy' in outcome) {
      c.header('Retry-After', '30');
      return json
        ? c.json(
            { error: 'busy', message: 'Too many requests are waiting; try again shortly.' },
            503,
            NO_STORE,
          )
        : page(c, 503, { kind: 'too-many-requests' });
    }
    if (!outcome.ok) {
      return json
        ? c.json({ error: 'invalid-input', field: outcome.field, message: outcome.message }, 400, NO_STORE)
        : page(c, 400, { kind: 'invalid-address', message: outcome.message });
    }
    return json ? c.json({ status: 'ok' }, 200, NO_STORE) : page(c, 200, { kind: 'check-inbox' });
  });

  // The link in the mail: a page with a button, so a link scanner or prefetcher confirms nobody.
  app.get('/confirm', async (c) => {
    const blocked = limited(c, 'links', false);
    if (blocked) return blocked;
    const token = c.req.query('token') ?? '';
    const info = await use.confirmInfo(token);
    if (!info.ok) return page(c, 400, { kind: 'invalid-link' });
    return info.confirmed
      ? page(c, 200, { kind: 'confirmed' })
      : page(c, 200, { kind: 'confirm', token, address: info.address });
  });

  // The button: a POST from a page of this site (Origin checked like every other form).
  app.post('/confirm', sameOrigin, limit('links'), ...body(), async (c) => {
    const json = wantsJson(c);
    const fields = (await readFields(c)) ?? {};
    const token = typeof fields.token === 'string' ? fields.token : '';
    const outcome = await use.confirm(token);
    if (json) {
      return outcome.ok
        ? c.json({ status: 'confirmed' }, 200, NO_STORE)
        : c.json(
            { error: 'invalid-token', field: 'token', message: 'The link is not valid.' },
            400,
            NO_STORE,
          );
    }
    return outcome.ok ? page(c, 200, { kind: 'confirmed' }) : page(c, 400, { kind: 'invalid-link' });
  });

  // A GET only shows a button: link scanners and prefetchers open URLs, and must not unsubscribe anyone.
  app.get('/unsubscribe', async (c) => {
    const blocked = limited(c, 'links', false);
    if (blocked) return blocked;
    const token = c.req.query('token') ?? '';
    const info = await use.unsubscribeInfo(token);
    return info.ok
      ? page(c, 200, { kind: 'unsubscribe', token, address: info.address })
      : page(c, 400, { kind: 'invalid-link' });
  });

  // RFC 8058: mail providers POST "List-Unsubscribe=One-Click" to the URL from their servers, with no Origin and no
  // cookie; the signed token is the authentication. The confirm button of the GET page posts here too.
  app.post('/unsubscribe', limit('links'), ...body(), async (c) => {
    const json = wantsJson(c);
    const fields = (await readFields(c)) ?? {};
    const token = typeof fields.token === 'string' ? fields.token : (c.req.query('token') ?? '');
    const outcome = await use.unsubscribe(token);
    if (json) {
      return outcome.ok
        ? c.json({ status: 'unsubscribed' }, 200, NO_STORE)
        : c.json(
            { error: 'invalid-token', field: 'token', message: 'The link is not valid.' },
            400,
            NO_STORE,
          );
    }
    return outcome.ok ? page(c, 200, { kind: 'unsubscribed' }) : page(c, 400, { kind: 'invalid-link' });
  });

  const preferences = options.digest.readerPreferences;
  const languages = options.digest.deps.config.languages;

  // The page behind every mail's "your edition" link: a form, changed only by a POST that carries the token.
  app.get('/preferences', async (c) => {
    const blocked = limited(c, 'links', false);
    if (blocked) return blocked;
    const token = c.req.query('token') ?? '';
    const info = await preferences.show(token);
    if (!info.ok) return page(c, 400, { kind: 'invalid-link' });
    return page(c, 200, {
      kind: 'preferences',
      token,
      address: info.address,
      preferences: info.preferences,
      languages,
    });
  });

  // Same Origin only (the page's own form) and the signed token in the body: another site can neither post it nor
  // know the token.
  app.post('/preferences', sameOrigin, limit('links'), ...body(), async (c) => {
    const json = wantsJson(c);
    const fields = await readFields(c);
    if (!fields) return unsupported(c);
    const token = typeof fields.token === 'string' ? fields.token : '';
    const outcome = await preferences.save(token, fields);
    if (!outcome.ok && 'field' in outcome) {
      if (json) {
        return c.json(
          { error: 'invalid-input', field: outcome.field, message: outcome.message },
          400,
          NO_STORE,
        );
      }
      const info = await preferences.show(token);
      if (!info.ok) return page(c, 400, { kind: 'invalid-link' });
      return page(c, 400, {
        kind: 'preferences',
        token,
        address: info.address,
        preferences: info.preferences,
        languages,
        problem: `The ${outcome.field} field: ${outcome.message}.`,
      });
    }
    if (!outcome.ok) {
      return json
        ? c.json({ error: 'invalid-token', field: 'token', message: 'The link is not valid.' }, 400, NO_STORE)
        : page(c, 400, { kind: 'invalid-link' });
    }
    if (json) return c.json({ status: 'saved', preferences: outcome.preferences }, 200, NO_STORE);
    const info = await preferences.show(token);
    return info.ok
      ? page(c, 200, {
          kind: 'preferences',
          token,
          address: info.address,
          preferences: info.preferences,
          languages,
          saved: true,
        })
      : page(c, 400, { kind: 'invalid-link' });
  });

  app.post('/webhooks/bounce', limit('webhook', true), ...body(16 * 1024), async (c) => {
    if (!(await use.authoriseWebhook(c.req.header('authorization')))) {
      return c.json({ error: 'unauthorized', message: 'A valid Bearer secret is required.' }, 401, {
        ...NO_STORE,
        'WWW-Authenticate': 'Bearer realm="webhooks"',
      });
    }
    if (!isJson(c)) return unsupported(c);
    const body = await c.req.json<unknown>().catch(() => undefined);
    if (body === undefined) return invalidJson(c);
    const outcome = await use.deliveryEvent(body);
    if (!outcome.ok) {
      return c.json(
        { error: 'invalid-input', field: outcome.field, message: outcome.message },
        400,
        NO_STORE,
      );
    }
    return c.json(
      outcome.matched
        ? { status: 'ok', matched: true, subscriber: { status: outcome.status, bounces: outcome.bounces } }
        : { status: 'ok', matched: false },
      200,
      NO_STORE,
    );
  });

  return app;
}

function isJson(c: Context): boolean {
  return /^application\/json\b/i.test(c.req.header('content-type') ?? '');
}

function wantsJson(c: Context): boolean {
  return isJson(c) || /\bapplication\/json\b/i.test(c.req.header('accept') ?? '');
}

/**
 * The fields of a form (urlencoded or multipart) or a JSON object; null for any other body. A repeated form field
 * is an array (so `website=a&website=` is seen whole); the email and token fields are used only as strings.
 */
async function readFields(c: Context): Promise<Fields | null> {
  if (isJson(c)) {
    const body = await c.req.json<unknown>().catch(() => null);
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Fields) : {};
  }
  const type = c.req.header('content-type') ?? '';
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    // all: repeated fields (the topic and level checkboxes) arrive as arrays.
    return (await c.req.parseBody({ all: true }).catch(() => ({}))) as Fields;
  }
  return null;
}

function unsupported(c: Context): Response {
  return c.json(
    { error: 'unsupported-media-type', message: 'Send a form or application/json.' },
    415,
    NO_STORE,
  );
}

function invalidJson(c: Context): Response {
  return c.json(
    { error: 'invalid-input', field: 'body', message: 'The body is not valid JSON.' },
    400,
    NO_STORE,
  );
}
