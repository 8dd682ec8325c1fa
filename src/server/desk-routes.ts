// /admin: the editor's desk. Routes parse the request and call the desk's use cases (app/desk.ts). Every admin route
// but the sign-in form needs a live session (cookie, or an `Authorization: Bearer` token for scripts): a GET without
// one is sent to /admin/login, anything else gets 401. Every POST made with the cookie carries the session's CSRF
// token, checked before the use case runs (403 otherwise).
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isIsoDay } from '../core/dates.js';
import type { Desk, DeskReply, DeskSession } from '../desk/index.js';
import { clientAddress } from './client-address.js';
import { bodyLimit, textGuard } from './guards.js';
import type { RequestVariables } from './request-log.js';

const SESSION_COOKIE = 'digest_desk';
const LOGIN_COOKIE = 'digest_desk_login';
const MAX_FORM_BYTES = 64 * 1024;

type Form = Record<string, string>;

export interface DeskRouteOptions {
  /** Trust X-Forwarded-For and X-Forwarded-Proto from the reverse proxy (config server.trustProxy). */
  trustProxy: boolean;
  /** The public base URL is https: cookies are `Secure` even when a TLS proxy forwards plain HTTP to us. */
  secureCookies?: boolean;
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

export function registerDeskRoutes(
  app: Hono<{ Variables: RequestVariables }>,
  desk: Desk,
  options: DeskRouteOptions,
): void {
  const cookieOptions = (c: Context, path: string, maxAge: number) =>
    ({
      path,
      httpOnly: true,
      sameSite: 'Strict',
      secure: options.secureCookies === true || overTls(c, options.trustProxy),
      maxAge,
    }) as const;
  const sessions = new WeakMap<Request, { session: DeskSession; form: Form }>();

  app.get('/desk-assets/:name', (c) => {
    const asset = desk.assets[c.req.param('name')];
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType, 'Cache-Control': 'no-cache' });
  });

  app.use('/admin/*', bodyLimit(MAX_FORM_BYTES), textGuard);

  app.get('/admin/login', async (c) => {
    const token = getCookie(c, SESSION_COOKIE) ?? bearer(c);
    if (token && (await desk.auth.authenticate(token)))
      return send(c, { kind: 'redirect', location: '/admin' }, 302);
    const formToken = desk.auth.newFormToken();
    setCookie(c, LOGIN_COOKIE, formToken, cookieOptions(c, '/admin/login', 3600));
    return send(c, desk.loginPage(formToken));
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
    if (!result.ok) {
      const formToken = desk.auth.newFormToken();
      setCookie(c, LOGIN_COOKIE, formToken, cookieOptions(c, '/admin/login', 3600));
      if (result.reason === 'rate-limited') {
        c.header('Retry-After', String(result.retryAfterSeconds));
        return send(
          c,
          desk.loginPage(
            formToken,
            `Too many sign-in attempts; try again in ${result.retryAfterSeconds} s.`,
            429,
          ),
        );
      }
      return send(
        c,
        desk.loginPage(formToken, 'That e-mail address and password do not match an editor.', 401),
      );
    }
    deleteCookie(c, LOGIN_COOKIE, { path: '/admin/login' });
    setCookie(c, SESSION_COOKIE, result.token, cookieOptions(c, '/admin', result.maxAgeSeconds));
    return send(c, { kind: 'redirect', location: '/admin' });
  });

  // Everything else under /admin needs a session; POSTs made with the cookie need the CSRF token.
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
    }
    sessions.set(c.req.raw, { session, form });
    await next();
  };
  app.use('/admin', guard);
  app.use('/admin/*', async (c, next) => {
    if (c.req.path === '/admin/login') return next();
    return guard(c, next);
  });
  const state = (c: Context) => sessions.get(c.req.raw)!;
  const week = (c: Context) => {
    const value = c.req.param('week') ?? '';
    return isIsoDay(value) ? value : null;
  };
  const weekRoute = (
    handler: (c: Context, session: DeskSession, week: string, form: Form) => Promise<DeskReply | null>,
    redirectStatus: 302 | 303 = 303,
  ) => {
    return async (c: Context) => {
      const { session, form } = state(c);
      const date = week(c);
      if (!date) return send(c, desk.notFound(session, 'Not a week: use a date like 2026-05-04.'));
      const reply = await handler(c, session, date, form);
      return send(c, reply ?? desk.notFound(session, `There is no draft for ${date} yet.`), redirectStatus);
    };
  };

  app.get('/admin', async (c) => send(c, await desk.home(), 302));
  app.get('/admin/audit', async (c) => send(c, await desk.audit(state(c).session)));
  app.post('/admin/logout', async (c) => {
    await desk.auth.signOut(state(c).session);
    deleteCookie(c, SESSION_COOKIE, { path: '/admin' });
    return send(c, { kind: 'redirect', location: '/admin/login' });
  });
  app.get(
    '/admin/week/:week',
    weekRoute((c, session, date) => desk.board(session, date, c.req.query()), 302),
  );
  app.get(
    '/admin/week/:week/item',
    weekRoute((c, session, date) => desk.item(session, date, c.req.query()), 302),
  );
  app.get(
    '/admin/week/:week/preview',
    weekRoute((_c, _s, date) => desk.preview(date, 'page')),
  );
  app.get(
    '/admin/week/:week/preview/email',
    weekRoute((_c, _s, date) => desk.preview(date, 'email')),
  );
  app.get(
    '/admin/week/:week/preview/email.txt',
    weekRoute((_c, _s, date) => desk.preview(date, 'text')),
  );
  app.get(
    '/admin/week/:week/translations',
    weekRoute((c, session, date) => desk.translations(session, date, c.req.query()), 302),
  );
  app.post(
    '/admin/week/:week/translation',
    weekRoute((_c, session, date, form) => desk.saveTranslation(session, date, form)),
  );
  app.get(
    '/admin/week/:week/approve',
    weekRoute((_c, session, date) => desk.approvePage(session, date)),
  );
  app.post(
    '/admin/week/:week/decide',
    weekRoute((_c, session, date, form) => desk.decide(session, date, form)),
  );
  app.post(
    '/admin/week/:week/add',
    weekRoute((_c, session, date, form) => desk.add(session, date, form)),
  );
  app.post(
    '/admin/week/:week/count',
    weekRoute((_c, session, date, form) => desk.count(session, date, form)),
  );
  app.post(
    '/admin/week/:week/rebuild',
    weekRoute((_c, session, date) => desk.rebuild(session, date)),
  );
  app.post(
    '/admin/week/:week/edit',
    weekRoute((_c, session, date, form) => desk.edit(session, date, form)),
  );
  app.post(
    '/admin/week/:week/revert',
    weekRoute((_c, session, date, form) => desk.edit(session, date, form, true)),
  );
  app.post(
    '/admin/week/:week/regenerate',
    weekRoute((_c, session, date, form) => desk.regenerate(session, date, form)),
  );
  app.post(
    '/admin/week/:week/approve',
    weekRoute((_c, session, date) => desk.approve(session, date)),
  );
  app.all('/admin/*', (c) => send(c, desk.notFound(state(c).session, 'No such page on the desk.')));
}
