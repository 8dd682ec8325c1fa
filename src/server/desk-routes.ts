// /admin: the editor's desk. Routes parse the request and call the desk's use cases (desk/index.ts). Every admin
// route but the sign-in form needs a live session (cookie, or an `Authorization: Bearer` token for scripts): a GET
// without one is sent to /admin/login, anything else gets 401. Every POST made with the cookie carries the session's
// CSRF token, checked before the use case runs (403 otherwise). Changes are rate-limited per session and per client
// address (429 with a page saying when to retry); sign-in attempts have their own limit (desk/auth.ts).
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isIsoDay } from '../core/dates.js';
import type { RateLimitStore, SharedRateLimiter } from '../core/rate-limiter.js';
import type { Desk, DeskReply, DeskSession } from '../desk/index.js';
import { clientAddress, clientGroup } from './client-address.js';
import { IMPORT_PATH, MAX_IMPORT_BYTES, registerReaderRoutes } from './desk-reader-routes.js';
import { bodyLimit, limitsIn, retryAfterSeconds, textGuard } from './guards.js';
import type { RequestVariables } from './request-log.js';

const SESSION_COOKIE = 'digest_desk';
const LOGIN_COOKIE = 'digest_desk_login';
const MAX_FORM_BYTES = 64 * 1024;

type Form = Record<string, string>;
type App = Hono<{ Variables: RequestVariables }>;
type CookieOptions = (c: Context, path: string, maxAge: number) => Parameters<typeof setCookie>[3];
/** A request under /admin/week/:week, after the session guard: who asks, for which week, with which form. */
type WeekRequest = { session: DeskSession; week: string; form: Form; query: Record<string, string> };

/** The actions posted to /admin/week/:week/<name>, each a desk use case of the same name. */
const WEEK_ACTIONS = [
  'decide',
  'add',
  'count',
  'rebuild',
  'edit',
  'regenerate',
  'approve',
  'correct',
  'test',
  'send',
  'notice',
] as const;
/** /admin/week/:week/preview<path>: what goes out, as the page, the mail and the mail's text part. */
const PREVIEWS = { '': 'page', '/email': 'email', '/email.txt': 'text' } as const;

export interface DeskRouteOptions {
  /** Trust X-Forwarded-For and X-Forwarded-Proto from the reverse proxy (config server.trustProxy). */
  trustProxy: boolean;
  /** The public base URL is https: cookies are `Secure` even when a TLS proxy forwards plain HTTP to us. */
  secureCookies?: boolean;
  /** Changes (POSTs) one session, and one client address, may make per minute (config server.deskWritesPerMinute). */
  writesPerMinute: number;
  /** The limiter's clock in ms: the digest's (default: the wall clock). */
  now?: (() => number) | undefined;
  /** Where the limits' buckets live (the database instances share); default: this process's memory, on `now`. */
  rateLimits?: RateLimitStore | undefined;
}

function overTls(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

async function readForm(c: Context): Promise<Form> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data'))
    return {};
  const body = await c.req.parseBody();
  const form: Form = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}

function send(c: Context, reply: DeskReply, redirectStatus: 302 | 303 = 303): Response {
  c.header('Cache-Control', 'no-store');
  if (reply.kind === 'redirect') return c.redirect(reply.location, redirectStatus);
  if (reply.kind === 'file') {
    return c.body(reply.body, reply.status as 200, {
      'Content-Type': reply.contentType,
      ...(reply.contentSecurityPolicy ? { 'Content-Security-Policy': reply.contentSecurityPolicy } : {}),
    });
  }
  return c.html(reply.html, reply.status as 200);
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

export function registerDeskRoutes(app: App, desk: Desk, options: DeskRouteOptions): void {
  const cookies: CookieOptions = (c, path, maxAge) => ({
    path,
    httpOnly: true,
    sameSite: 'Strict',
    secure: options.secureCookies === true || overTls(c, options.trustProxy),
    maxAge,
  });
  app.get('/desk-assets/:name', (c) => {
    const asset = desk.assets[c.req.param('name')];
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType, 'Cache-Control': 'no-cache' });
  });
  const formLimit = bodyLimit(MAX_FORM_BYTES);
  const importLimit = bodyLimit(MAX_IMPORT_BYTES);
  app.use(
    '/admin/*',
    (c, next) => (c.req.path === IMPORT_PATH ? importLimit : formLimit)(c, next),
    textGuard,
  );
  registerSignIn({ app, desk, options, cookies });
  const { writesPerMinute } = options;
  const writes = limitsIn(options).limiter('desk-writes', {
    capacity: writesPerMinute,
    refillMs: 60_000 / writesPerMinute,
  });
  const state = guardSessions(app, desk, limitWrites(desk, writes, options.trustProxy));
  app.get('/admin', async (c) => send(c, await desk.home(), 302));
  app.get('/admin/audit', async (c) => send(c, await desk.audit(state(c).session)));
  app.post('/admin/logout', async (c) => {
    await desk.auth.signOut(state(c).session);
    deleteCookie(c, SESSION_COOKIE, { path: '/admin' });
    return send(c, { kind: 'redirect', location: '/admin/login' });
  });
  registerWeekRoutes(app, desk, state);
  registerReaderRoutes({ app, desk, state, send });
  app.all('/admin/*', (c) => send(c, desk.notFound(state(c).session, 'No such page on the desk.')));
}

/** GET and POST /admin/login: the form (with its double-submit token) and the attempt. */
function registerSignIn({
  app,
  desk,
  options,
  cookies,
}: {
  app: App;
  desk: Desk;
  options: DeskRouteOptions;
  cookies: CookieOptions;
}): void {
  const newForm = (c: Context) => {
    const formToken = desk.auth.newFormToken();
    setCookie(c, LOGIN_COOKIE, formToken, cookies(c, '/admin/login', 3600));
    return formToken;
  };
  app.get('/admin/login', async (c) => {
    const token = getCookie(c, SESSION_COOKIE) ?? bearer(c);
    if (token && (await desk.auth.authenticate(token)))
      return send(c, { kind: 'redirect', location: '/admin' }, 302);
    return send(c, desk.loginPage(newForm(c)));
  });

  app.post('/admin/login', async (c) => {
    const form = await readForm(c);
    const expected = getCookie(c, LOGIN_COOKIE);
    // Double-submit: the form's token must match the cookie this site set with the form.
    if (!expected || !desk.auth.checkCsrfPair(form.csrf, expected)) {
      return c.text('Forbidden: the sign-in form expired or did not come from this site. Reload it.', 403);
    }
    const result = await desk.auth.signIn({
      email: form.email ?? '',
      password: form.password ?? '',
      clientAddress: clientAddress(c, options.trustProxy),
    });
    if (!result.ok && result.reason === 'rate-limited') {
      c.header('Retry-After', String(result.retryAfterSeconds));
      const error = `Too many sign-in attempts; try again in ${result.retryAfterSeconds} s.`;
      return send(c, desk.loginPage(newForm(c), error, 429));
    }
    if (!result.ok) {
      const error = 'That e-mail address and password do not match an editor.';
      return send(c, desk.loginPage(newForm(c), error, 401));
    }
    deleteCookie(c, LOGIN_COOKIE, { path: '/admin/login' });
    setCookie(c, SESSION_COOKIE, result.token, cookies(c, '/admin', result.maxAgeSeconds));
    return send(c, { kind: 'redirect', location: '/admin' });
  });
}

/** Why a change may not run now (its 429 page), or null. Signing out is never refused. */
type WriteLimit = (c: Context, session: DeskSession) => Promise<Response | null>;

/**
 * One limiter for the desk's changes, keyed twice: by session (a script's token cannot go faster by changing
 * address) and by client address (several sessions from one place share its budget). Both are taken or neither.
 */
function limitWrites(desk: Desk, limiter: SharedRateLimiter, trustProxy: boolean): WriteLimit {
  return async (c, session) => {
    if (c.req.path === '/admin/logout') return null;
    const bySession = `session:${session.tokenHash}`;
    const first = await limiter.take(bySession);
    const second = first.allowed ? await limiter.take(`ip:${clientGroup(c, trustProxy)}`) : first;
    if (second.allowed) return null;
    if (first.allowed) await limiter.refund(bySession);
    const seconds = retryAfterSeconds(second.retryAfterMs);
    c.header('Retry-After', seconds);
    return send(c, desk.tooManyChanges(session, Number(seconds)));
  };
}

/**
 * Everything under /admin but the sign-in form needs a session; POSTs made with the cookie need the CSRF token,
 * then pass the rate limit of changes. Returns how a route reads the request's session and form once let through.
 */
function guardSessions(
  app: App,
  desk: Desk,
  limitWrite: WriteLimit,
): (c: Context) => { session: DeskSession; form: Form } {
  const sessions = new WeakMap<Request, { session: DeskSession; form: Form }>();
  const guard = async (c: Context, next: () => Promise<void>) => {
    c.header('Cache-Control', 'no-store');
    const fromBearer = bearer(c);
    const session = await desk.auth.authenticate(fromBearer ?? getCookie(c, SESSION_COOKIE));
    if (!session) {
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.redirect('/admin/login', 302);
      return c.text('Unauthorized: sign in at /admin/login.', 401, {
        'WWW-Authenticate': 'Bearer realm="desk"',
      });
    }
    let form: Form = {};
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      form = await readForm(c);
      if (!fromBearer && !desk.auth.checkCsrf(session, form.csrf)) {
        return c.text('Forbidden: the form has no valid CSRF token. Reload the page and try again.', 403);
      }
      const refused = await limitWrite(c, session);
      if (refused) return refused;
    }
    sessions.set(c.req.raw, { session, form });
    await next();
  };
  app.use('/admin', guard);
  app.use('/admin/*', async (c, next) => {
    if (c.req.path === '/admin/login') return next();
    return guard(c, next);
  });
  return (c) => sessions.get(c.req.raw)!;
}

/** /admin/week/:week/…: the week's pages (GET) and actions (POST); a week that is not a date is not found. */
function registerWeekRoutes(
  app: App,
  desk: Desk,
  state: (c: Context) => { session: DeskSession; form: Form },
): void {
  // A redirect answers a GET with 302 and a POST with 303 (see other: the browser GETs the page it names).
  const weekRoute =
    (handler: (request: WeekRequest) => Promise<DeskReply | null>, redirectStatus: 302 | 303) =>
    async (c: Context) => {
      const { session, form } = state(c);
      const week = c.req.param('week') ?? '';
      if (!isIsoDay(week)) return send(c, desk.notFound(session, 'Not a week: use a date like 2026-05-04.'));
      const reply = await handler({ session, week, form, query: c.req.query() });
      return send(c, reply ?? desk.notFound(session, `There is no draft for ${week} yet.`), redirectStatus);
    };
  const page = (path: string, handler: (request: WeekRequest) => Promise<DeskReply | null>) =>
    app.get(`/admin/week/:week${path}`, weekRoute(handler, 302));
  const action = (path: string, handler: (request: WeekRequest) => Promise<DeskReply | null>) =>
    app.post(`/admin/week/:week${path}`, weekRoute(handler, 303));

  page('', (r) => desk.board(r.session, r.week, r.query));
  page('/item', (r) => desk.item(r.session, r.week, r.query));
  page('/translations', (r) => desk.translations(r.session, r.week, r.query));
  page('/approve', (r) => desk.approvePage(r.session, r.week));
  page('/send', (r) => desk.sendPage(r.session, r.week, 'edition'));
  page('/notice', (r) => desk.sendPage(r.session, r.week, 'notice'));
  page('/correct', (r) => desk.correctionPage(r.session, r.week));
  page('/readers', (r) => desk.readers(r.session, r.week));
  for (const [path, kind] of Object.entries(PREVIEWS))
    page(`/preview${path}`, (r) => desk.preview(r.week, kind));

  for (const name of WEEK_ACTIONS) action(`/${name}`, (r) => desk[name](r.session, r.week, r.form));
  action('/revert', (r) => desk.revert(r.session, r.week, r.form));
  action('/translation', (r) => desk.saveTranslation(r.session, r.week, r.form));
}
