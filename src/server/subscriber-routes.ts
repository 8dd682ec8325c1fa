// POST /subscribe, GET+POST /confirm, GET+POST /unsubscribe (RFC 8058 one-click), GET+POST /preferences (the
// reader's own edition, behind the signed link of every mail) and POST /webhooks/bounce. The routes parse, guard
// (Origin, size, text, rate) and call the subscription use cases; the answers never say who is subscribed. A GET
// never changes anything: the confirm and unsubscribe links open a page with a button.
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { RateLimitStore } from '../core/rate-limiter.js';
import {
  type ReaderPreferencesUseCases,
  renderSubscriberPage,
  type SubscriberPage,
  type Subscriptions,
  type subscriptionSettings,
} from '../subscribers/index.js';
import { clientGroup } from './client-address.js';
import {
  allowedOrigins,
  bodyLimit,
  limitsIn,
  originCheck,
  retryAfterSeconds,
  textGuard,
  tooManyRequests,
} from './guards.js';
import type { RequestVariables } from './request-log.js';

type RoutesEnv = { Variables: RequestVariables };
/** Where the site lives (links, the one Origin a POST may carry), its name, the subscribe limit, whether it mails. */
export type SubscriptionSettings = NonNullable<ReturnType<typeof subscriptionSettings>>;

/** A subscribe form or a one-click POST is a few hundred bytes. */
export const MAX_FORM_BYTES = 8 * 1024;
const LINK_REQUESTS_PER_MINUTE = 120;
const WEBHOOK_REQUESTS_PER_MINUTE = 600;
const NO_STORE = { 'Cache-Control': 'no-store' };

type RouteMethod =
  | 'request'
  | 'confirmInfo'
  | 'confirm'
  | 'unsubscribeInfo'
  | 'unsubscribe'
  | 'deliveryEvent'
  | 'authoriseWebhook';
type Async<F extends (...args: never[]) => unknown> = (
  ...args: Parameters<F>
) => Promise<Awaited<ReturnType<F>>> | Awaited<ReturnType<F>>;

/** The use cases behind the routes: the subscription links and the reader's own preferences. */
export interface SubscriberUseCases {
  subscriptions: { [K in RouteMethod]: Async<Subscriptions[K]> };
  preferences: ReaderPreferencesUseCases;
}

export interface SubscriberRoutesOptions {
  useCases: SubscriberUseCases;
  settings: SubscriptionSettings;
  /** The edition's languages, offered on the preferences page. */
  languages: string[];
  trustProxy: boolean;
  /** The limiters' clock in ms: the digest's (default: the wall clock). */
  now?: (() => number) | undefined;
  /** Where the limits' buckets live (the database instances share); default: this process's memory, on `now`. */
  rateLimits?: RateLimitStore | undefined;
  /** A bounce was recorded on a reader's row (POST /webhooks/bounce): the server counts it in /metrics. */
  onBounce?: (() => void) | undefined;
}

type Fields = Record<string, unknown>;
type Limit = 'subscribe' | 'links' | 'webhook';
type PageStatus = 200 | 400 | 429 | 503;

/** What every route group shares: the use cases, the page renderer and the guards. */
interface RouteKit {
  use: SubscriberUseCases['subscriptions'];
  preferences: ReaderPreferencesUseCases;
  languages: string[];
  settings: SubscriptionSettings;
  page(c: Context, status: PageStatus, content: SubscriberPage): Response;
  /** null when allowed; else the 429 in the client's format. */
  limited(c: Context, which: Limit, json: boolean): Promise<Response | null>;
  /** The per-address limit, before the body is read: a refused request costs no parsing. */
  limit(which: Limit, json?: boolean): MiddlewareHandler<RoutesEnv>;
  ip(c: Context): string;
  onBounce: () => void;
}

/** The subscriber routes: subscribe and confirm, unsubscribe, the reader's preferences, the bounce webhook. */
export function subscriberRoutes(options: SubscriberRoutesOptions): Hono<RoutesEnv> {
  const kit = routeKit(options);
  const app = new Hono<RoutesEnv>();
  const sameOrigin = originCheck(allowedOrigins(options.settings.origin));
  subscribeRoutes(app, kit, sameOrigin);
  unsubscribeRoutes(app, kit);
  preferenceRoutes(app, kit, sameOrigin);
  webhookRoutes(app, kit);
  return app;
}

function routeKit(options: SubscriberRoutesOptions): RouteKit {
  const { settings } = options;
  const ip = (c: Context) => clientGroup(c, options.trustProxy);
  const store = limitsIn(options);
  const limiter = (name: Limit, perMinute: number) =>
    store.limiter(name, { capacity: perMinute, refillMs: 60_000 / perMinute });
  const limits = {
    subscribe: limiter('subscribe', settings.perMinute),
    links: limiter('links', LINK_REQUESTS_PER_MINUTE),
    webhook: limiter('webhook', WEBHOOK_REQUESTS_PER_MINUTE),
  } satisfies Record<Limit, unknown>;
  const page = (c: Context, status: PageStatus, content: SubscriberPage) =>
    c.html(
      renderSubscriberPage(content, {
        siteName: settings.siteName,
        root: settings.baseUrl,
        clicks: settings.clicks,
        clicksOnSite: settings.clicksOnSite,
        sender: settings.sender,
      }),
      status,
      { ...NO_STORE },
    );
  const limited = async (c: Context, which: Limit, json: boolean): Promise<Response | null> => {
    const decision = await limits[which].take(ip(c));
    if (decision.allowed) return null;
    if (json) return tooManyRequests(c, decision.retryAfterMs);
    // A browser gets the same refusal as a page it can read.
    c.header('Retry-After', retryAfterSeconds(decision.retryAfterMs));
    return page(c, 429, { kind: 'too-many-requests' });
  };
  const limit =
    (which: Limit, json?: boolean): MiddlewareHandler<RoutesEnv> =>
    async (c, next) => {
      const blocked = await limited(c, which, json ?? wantsJson(c));
      if (blocked) return blocked;
      await next();
    };
  return {
    use: options.useCases.subscriptions,
    preferences: options.useCases.preferences,
    onBounce: options.onBounce ?? (() => {}),
    languages: options.languages,
    settings,
    page,
    limited,
    limit,
    ip,
  };
}

// The text check reads the body whole, so it comes after the size cap.
const body = (maxBytes = MAX_FORM_BYTES) => [bodyLimit(maxBytes), textGuard] as const;

/** POST /subscribe, and the confirm link's page (GET) and button (POST). */
function subscribeRoutes(app: Hono<RoutesEnv>, kit: RouteKit, sameOrigin: MiddlewareHandler): void {
  const { use, page } = kit;
  app.post('/subscribe', sameOrigin, kit.limit('subscribe'), ...body(), async (c) => {
    const json = wantsJson(c);
    const fields = await readFields(c);
    if (!fields) return unsupported(c);
    if (!kit.settings.canMail) {
      return c.json(
        { error: 'unavailable', message: 'Subscribing is not set up on this site (no SMTP server).' },
        503,
        NO_STORE,
      );
    }
    const outcome = await use.request({
      email: fields.email,
      honeypot: fields.website,
      ip: kit.ip(c),
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
    const blocked = await kit.limited(c, 'links', false);
    if (blocked) return blocked;
    const token = c.req.query('token') ?? '';
    const info = await use.confirmInfo(token);
    if (!info.ok) return page(c, 400, { kind: 'invalid-link' });
    return info.confirmed
      ? page(c, 200, { kind: 'confirmed' })
      : page(c, 200, { kind: 'confirm', token, address: info.address });
  });

  // The button: a POST from a page of this site (Origin checked like every other form).
  app.post('/confirm', sameOrigin, kit.limit('links'), ...body(), async (c) => {
    const fields = (await readFields(c)) ?? {};
    const token = typeof fields.token === 'string' ? fields.token : '';
    const outcome = await use.confirm(token);
    return linkAnswer({ c, kit, ok: outcome.ok, done: 'confirmed' });
  });
}

/** The unsubscribe link's page (GET) and the one-click POST. */
function unsubscribeRoutes(app: Hono<RoutesEnv>, kit: RouteKit): void {
  // A GET only shows a button: link scanners and prefetchers open URLs, and must not unsubscribe anyone.
  app.get('/unsubscribe', async (c) => {
    const blocked = await kit.limited(c, 'links', false);
    if (blocked) return blocked;
    const token = c.req.query('token') ?? '';
    const info = await kit.use.unsubscribeInfo(token);
    return info.ok
      ? kit.page(c, 200, { kind: 'unsubscribe', token, address: info.address })
      : kit.page(c, 400, { kind: 'invalid-link' });
  });

  // RFC 8058: mail providers POST "List-Unsubscribe=One-Click" to the URL from their servers, with no Origin and no
  // cookie; the signed token is the authentication. The confirm button of the GET page posts here too.
  app.post('/unsubscribe', kit.limit('links'), ...body(), async (c) => {
    const fields = (await readFields(c)) ?? {};
    const token = typeof fields.token === 'string' ? fields.token : (c.req.query('token') ?? '');
    const outcome = await kit.use.unsubscribe(token);
    return linkAnswer({ c, kit, ok: outcome.ok, done: 'unsubscribed' });
  });
}

/** The answer to a signed link's button: its status, or "the link is not valid", as JSON or as a page. */
function linkAnswer({
  c,
  kit,
  ok,
  done,
}: {
  c: Context;
  kit: RouteKit;
  ok: boolean;
  done: 'confirmed' | 'unsubscribed';
}): Response {
  if (wantsJson(c)) {
    return ok
      ? c.json({ status: done }, 200, NO_STORE)
      : c.json({ error: 'invalid-token', field: 'token', message: 'The link is not valid.' }, 400, NO_STORE);
  }
  return ok ? kit.page(c, 200, { kind: done }) : kit.page(c, 400, { kind: 'invalid-link' });
}

/** The page behind every mail's "your edition" link: a form, changed only by a POST that carries the token. */
function preferenceRoutes(app: Hono<RoutesEnv>, kit: RouteKit, sameOrigin: MiddlewareHandler): void {
  const { preferences, page } = kit;
  const form = async ({
    c,
    token,
    status,
    extra,
  }: {
    c: Context;
    token: string;
    status: 200 | 400;
    extra: { problem?: string; saved?: true };
  }) => {
    const info = await preferences.show(token);
    if (!info.ok) return page(c, 400, { kind: 'invalid-link' });
    return page(c, status, {
      kind: 'preferences',
      token,
      address: info.address,
      preferences: info.preferences,
      ...(info.countMyClicks === null ? {} : { countMyClicks: info.countMyClicks }),
      languages: kit.languages,
      ...extra,
    });
  };

  app.get('/preferences', async (c) => {
    const blocked = await kit.limited(c, 'links', false);
    if (blocked) return blocked;
    return form({ c, token: c.req.query('token') ?? '', status: 200, extra: {} });
  });

  // Same Origin only (the page's own form) and the signed token in the body: another site can neither post it nor
  // know the token.
  app.post('/preferences', sameOrigin, kit.limit('links'), ...body(), async (c) => {
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
      return form({
        c,
        token,
        status: 400,
        extra: { problem: `The ${outcome.field} field: ${outcome.message}.` },
      });
    }
    if (!outcome.ok) {
      return json
        ? c.json({ error: 'invalid-token', field: 'token', message: 'The link is not valid.' }, 400, NO_STORE)
        : page(c, 400, { kind: 'invalid-link' });
    }
    if (json) {
      const saved = { status: 'saved', preferences: outcome.preferences };
      const clicks = outcome.countMyClicks === null ? {} : { countMyClicks: outcome.countMyClicks };
      return c.json({ ...saved, ...clicks }, 200, NO_STORE);
    }
    return form({ c, token, status: 200, extra: { saved: true } });
  });
}

/** POST /webhooks/bounce: an ESP's delivery events, behind a Bearer secret. */
function webhookRoutes(app: Hono<RoutesEnv>, kit: RouteKit): void {
  app.post('/webhooks/bounce', kit.limit('webhook', true), ...body(16 * 1024), async (c) => {
    if (!(await kit.use.authoriseWebhook(c.req.header('authorization')))) {
      return c.json({ error: 'unauthorized', message: 'A valid Bearer secret is required.' }, 401, {
        ...NO_STORE,
        'WWW-Authenticate': 'Bearer realm="webhooks"',
      });
    }
    if (!isJson(c)) return unsupported(c);
    const event = await c.req.json<unknown>().catch(() => undefined);
    if (event === undefined) return invalidJson(c);
    const outcome = await kit.use.deliveryEvent(event);
    if (!outcome.ok) {
      return c.json(
        { error: 'invalid-input', field: outcome.field, message: outcome.message },
        400,
        NO_STORE,
      );
    }
    if (outcome.matched && outcome.type === 'bounce') kit.onBounce();
    return c.json(
      outcome.matched
        ? { status: 'ok', matched: true, subscriber: { status: outcome.status, bounces: outcome.bounces } }
        : { status: 'ok', matched: false },
      200,
      NO_STORE,
    );
  });
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
