// The desk's routes through app.request(): sign-in, sessions, CSRF, rate limits and what an unauthenticated or
// forged request can do (nothing).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import {
  cookiesOf,
  createDeskHarness,
  csrfOf,
  type DeskHarness,
  deskState,
  EDITOR,
  form,
  signIn,
  WEEK,
} from './_desk.js';

const GET_ROUTES = [
  '/admin',
  `/admin/week/${WEEK}`,
  `/admin/week/${WEEK}/item?key=`,
  `/admin/week/${WEEK}/preview`,
  `/admin/week/${WEEK}/preview/email`,
  `/admin/week/${WEEK}/preview/email.txt`,
  `/admin/week/${WEEK}/approve`,
  '/admin/audit',
  '/admin/anything-else',
];

const POST_ROUTES = [
  '/admin/logout',
  `/admin/week/${WEEK}/decide`,
  `/admin/week/${WEEK}/add`,
  `/admin/week/${WEEK}/count`,
  `/admin/week/${WEEK}/rebuild`,
  `/admin/week/${WEEK}/edit`,
  `/admin/week/${WEEK}/revert`,
  `/admin/week/${WEEK}/regenerate`,
  `/admin/week/${WEEK}/approve`,
  `/admin/week/${WEEK}/test`,
  `/admin/week/${WEEK}/send`,
  `/admin/week/${WEEK}/notice`,
  `/admin/week/${WEEK}/schedule`,
  `/admin/week/${WEEK}/unschedule`,
  '/admin/readers/add',
  '/admin/readers/import',
  '/admin/readers/1/remove',
];

/** Fields that would change something if the request were let through. */
const HARMFUL: Record<string, Record<string, string>> = {
  decide: { action: 'skip', key: 'arxiv:2605.10000' },
  count: { count: '2' },
  edit: { key: '', version: '0', title: 'Hijacked', intro: 'Hijacked intro' },
  revert: { key: '', field: 'title', version: '0' },
  regenerate: { key: 'arxiv:2605.10000', writer: 'extractive' },
  schedule: { at: '2099-01-05T08:00', zone: 'UTC' },
  add: { input: 'https://example.com/post', email: 'intruder@example.com', consent: 'on' },
  remove: { confirm: 'on' },
};

const fieldsFor = (path: string) => HARMFUL[path.split('/').at(-1)!] ?? {};

describe('editor desk routes', () => {
  const store = useTestStore();
  let harness: DeskHarness;

  beforeEach(async () => {
    harness = await createDeskHarness(store(), {
      limits: { perIp: 50, perIpRefillMs: 60_000, perPair: 3, perPairRefillMs: 600_000 },
    });
  });
  afterEach(async () => harness.close());

  const snapshot = () => deskState(store());

  it('sends every unauthenticated GET to the sign-in page', async () => {
    for (const path of GET_ROUTES) {
      const response = await harness.app.request(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe('/admin/login');
    }
  });

  it('answers every unauthenticated POST with 401 and changes nothing', async () => {
    const before = await snapshot();
    for (const path of POST_ROUTES) {
      const sent = form({ csrf: 'guess', ...fieldsFor(path) });
      const response = await harness.app.request(path, { method: 'POST', ...sent });
      expect(response.status, path).toBe(401);
      // A forged cookie is no better than none.
      const forged = await harness.app.request(path, {
        method: 'POST',
        body: sent.body,
        headers: { ...sent.headers, cookie: 'digest_desk=forged-token' },
      });
      expect(forged.status, path).toBe(401);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a POST with a missing or wrong CSRF token (403) and changes nothing', async () => {
    const client = await signIn(harness.app);
    const other = await signIn(harness.app, {
      email: 'other@example.com',
      password: 'another long passphrase',
    });
    const before = await snapshot();
    for (const path of POST_ROUTES) {
      const missing = await client.post(path, fieldsFor(path), { csrf: null });
      expect(missing.status, path).toBe(403);
      const wrong = await client.post(path, fieldsFor(path), { csrf: `${client.csrf.slice(0, -2)}xx` });
      expect(wrong.status, path).toBe(403);
    }
    // Another editor's token does not work with this session either.
    expect((await client.post('/admin/logout', {}, { csrf: other.csrf })).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie, Secure behind TLS', async () => {
    const page = await harness.app.request('https://desk.example/admin/login');
    const loginCookie = cookiesOf(page).get('digest_desk_login')!;
    const sent = form({ csrf: csrfOf(await page.text()), ...EDITOR });
    const response = await harness.app.request('https://desk.example/admin/login', {
      method: 'POST',
      body: sent.body,
      headers: { ...sent.headers, cookie: `digest_desk_login=${loginCookie}` },
    });
    expect(response.status).toBe(303);
    const header = response.headers.getSetCookie().find((value) => value.startsWith('digest_desk='))!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/Path=\/admin/);
    const plain = await signIn(harness.app);
    expect(plain.cookie).toMatch(/^digest_desk=/);
  });

  it('refuses a sign-in form without its double-submit cookie', async () => {
    const page = await harness.app.request('/admin/login');
    const sent = form({ csrf: csrfOf(await page.text()), ...EDITOR });
    const response = await harness.app.request('/admin/login', { method: 'POST', ...sent });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie().some((value) => value.startsWith('digest_desk='))).toBe(false);
  });

  it('revokes the session on sign-out: a replayed cookie is sent to the sign-in page', async () => {
    const client = await signIn(harness.app);
    expect((await client.get(`/admin/week/${WEEK}`)).status).toBe(200);
    const out = await client.post('/admin/logout', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/admin/login');
    const replayed = await client.get(`/admin/week/${WEEK}`);
    expect(replayed.status).toBe(302);
    expect(replayed.headers.get('location')).toBe('/admin/login');
    const before = await snapshot();
    expect((await client.post(`/admin/week/${WEEK}/count`, { count: '2' })).status).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  it('rate-limits sign-in per (address, account): 429 after the allowed failures, even with the right password', async () => {
    const attempt = async (password: string) => {
      const page = await harness.app.request('/admin/login');
      const loginCookie = cookiesOf(page).get('digest_desk_login')!;
      const sent = form({ csrf: csrfOf(await page.text()), email: EDITOR.email, password });
      return harness.app.request('/admin/login', {
        method: 'POST',
        body: sent.body,
        headers: { ...sent.headers, cookie: `digest_desk_login=${loginCookie}` },
      });
    };
    for (let index = 0; index < 3; index++) expect((await attempt(`wrong guess ${index}`)).status).toBe(401);
    const blocked = await attempt(EDITOR.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.headers.getSetCookie().some((value) => value.startsWith('digest_desk='))).toBe(false);
    // The other editor's account is not locked by it, and neither is this one from another address.
    await expect(
      signIn(harness.app, { email: 'other@example.com', password: 'another long passphrase' }),
    ).resolves.toBeTruthy();
    expect((await harness.desk.auth.signIn({ ...EDITOR, clientAddress: '198.51.100.77' })).ok).toBe(true);
    const failures = (await store().desk.listAudit()).filter((entry) => entry.action === 'sign-in-failed');
    expect(failures).toHaveLength(3);
  });

  it('rate-limits sign-in per client address', async () => {
    const desk = await harness.digest.desk({
      siteDir: harness.siteDir,
      signInLimits: { perIp: 2, perIpRefillMs: 60_000, perPair: 100, perPairRefillMs: 60_000 },
    });
    const results = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      results.push(
        await desk.auth.signIn({ email, password: 'whatever it is', clientAddress: '198.51.100.1' }),
      );
    }
    expect(results.map((result) => (result.ok ? 'ok' : result.reason))).toEqual([
      'invalid',
      'invalid',
      'rate-limited',
    ]);
    const elsewhere = await desk.auth.signIn({ ...EDITOR, clientAddress: '198.51.100.2' });
    expect(elsewhere.ok).toBe(true);
  });

  it('never counts a successful sign-in, nor one the limit refused', async () => {
    const desk = await harness.digest.desk({
      siteDir: harness.siteDir,
      signInLimits: { perIp: 2, perIpRefillMs: 60_000, perPair: 2, perPairRefillMs: 60_000 },
    });
    const from = { clientAddress: '198.51.100.9' };
    for (let index = 0; index < 5; index++)
      expect((await desk.auth.signIn({ ...EDITOR, ...from })).ok).toBe(true);
    const wrong = { email: EDITOR.email, password: 'not the passphrase', ...from };
    expect((await desk.auth.signIn(wrong)).ok).toBe(false);
    expect((await desk.auth.signIn({ ...EDITOR, ...from })).ok).toBe(true);
    expect(await desk.auth.signIn(wrong)).toMatchObject({ reason: 'invalid' });
    for (let index = 0; index < 5; index++) {
      expect(await desk.auth.signIn(wrong)).toMatchObject({ reason: 'rate-limited' });
    }
    const failures = (await store().desk.listAudit()).filter((entry) => entry.action === 'sign-in-failed');
    expect(failures).toHaveLength(2);
  });

  it('accepts a session token as a Bearer token for scripts (no CSRF: no cookie is involved)', async () => {
    const result = await harness.desk.auth.signIn({ ...EDITOR, clientAddress: 'script' });
    if (!result.ok) throw new Error('sign-in failed');
    const headers = { authorization: `Bearer ${result.token}` };
    expect((await harness.app.request(`/admin/week/${WEEK}`, { headers })).status).toBe(200);
    const sent = form({ count: '3' });
    const response = await harness.app.request(`/admin/week/${WEEK}/count`, {
      method: 'POST',
      body: sent.body,
      headers: { ...sent.headers, ...headers },
    });
    expect(response.status).toBe(303);
    expect((await store().desk.week(WEEK))?.itemCount).toBe(3);
    const bad = await harness.app.request(`/admin/week/${WEEK}`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.status).toBe(302);
  });

  it('serves admin pages with no-store and the site policy headers', async () => {
    const client = await signIn(harness.app);
    const response = await client.get(`/admin/week/${WEEK}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<style>| style="/);
    expect(html).toContain('<script src="/desk-assets/desk.js" defer></script>');
  });

  it('routes each week page and preview to its own answer', async () => {
    const client = await signIn(harness.app);
    const pages: [string, string, string][] = [
      [`/admin/week/${WEEK}`, 'text/html', `<h1>Week of ${WEEK}</h1>`],
      [`/admin/week/${WEEK}/item?key=`, 'text/html', '<h1>Edit the title and intro</h1>'],
      [`/admin/week/${WEEK}/translations`, 'text/html', `<h1>Translations of the week of ${WEEK}</h1>`],
      [`/admin/week/${WEEK}/approve`, 'text/html', `<h1>Approve and publish the week of ${WEEK}</h1>`],
      [`/admin/week/${WEEK}/preview`, 'text/html', '<!doctype html>'],
      [`/admin/week/${WEEK}/preview/email`, 'text/html', '<!doctype html>'],
      [`/admin/week/${WEEK}/preview/email.txt`, 'text/plain', 'Test Digest'],
      ['/admin/audit', 'text/html', '<h1>Audit log</h1>'],
    ];
    for (const [path, type, marker] of pages) {
      const response = await client.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toContain(type);
      expect((await response.text()).toLowerCase(), path).toContain(marker.toLowerCase());
    }
    // Only the mail preview runs under a sandbox policy of its own.
    const email = await client.get(`/admin/week/${WEEK}/preview/email`);
    expect(email.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    const page = await client.get(`/admin/week/${WEEK}/preview`);
    expect(page.headers.get('content-security-policy') ?? '').not.toMatch(/^sandbox;/);
  });

  it('answers a path that is not a week, or a week without a draft, with 404', async () => {
    const client = await signIn(harness.app);
    const notAWeek = await client.get('/admin/week/2026-13-45');
    expect(notAWeek.status).toBe(404);
    expect(await notAWeek.text()).toContain('Not a week');
    const noDraft = await client.get('/admin/week/2026-04-27/approve');
    expect(noDraft.status).toBe(404);
    expect(await noDraft.text()).toContain('There is no draft for 2026-04-27 yet.');
    const action = await client.post('/admin/week/2026-13-45/rebuild', {});
    expect(action.status).toBe(404);
    expect(await client.get('/admin/week/2026-05-04/nothing')).toHaveProperty('status', 404);
  });

  it('redirects a GET with 302 and a POST with 303, back to the page the action belongs to', async () => {
    const client = await signIn(harness.app);
    const home = await client.get('/admin');
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe(`/admin/week/${WEEK}`);
    const rebuilt = await client.post(`/admin/week/${WEEK}/rebuild`, {});
    expect(rebuilt.status).toBe(303);
    expect(rebuilt.headers.get('location')).toBe(`/admin/week/${WEEK}?done=rebuilt`);
    const saved = await client.post(`/admin/week/${WEEK}/edit`, {
      key: '',
      version: '0',
      title: 'A new title',
      intro: 'A new intro for the week.',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/admin/week/${WEEK}/item?key=&done=saved`);
  });
});
