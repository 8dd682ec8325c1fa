// The reader's own edition through app.request() on a real PGlite store: the preferences page behind the signed
// link, its POST (Origin, token, rate limit, bad input) and the choices the subscribe form carries.
import { HtmlValidate } from 'html-validate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';
import { formPost as form, freshIp, jsonPost, type SubscribeApp, subscribeApp } from './_subscribe-app.js';

describe('reader preferences (app.request)', () => {
  const store = useTestStore('pglite');
  let site: TempSite;
  let smtp: LoopbackSmtp;
  let t: SubscribeApp;

  beforeAll(async () => {
    site = await publishTempSite();
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await site?.remove();
  });
  beforeEach(async () => {
    t = await subscribeApp({
      store: store(),
      siteDir: site.dir,
      smtpPort: smtp.port,
      languages: ['en', 'de'],
    });
  });
  afterEach(() => t.digest.subscriptions.idle());

  const reader = async (address = 'ada@example.com') => {
    const row = await t.store.subscribers.put(address, address, 'confirmed');
    return { row, token: t.token('preferences', row) };
  };

  it('the signed link shows a form; its POST stores language, topics, levels and the "only" flag', async () => {
    const { row, token } = await reader();
    const page = await t.app.request(`/preferences?token=${token}`, {
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const body = await page.text();
    expect(body).toContain('a…@example.com');
    expect(body).toContain('<option value="de" lang="de">Deutsch</option>');
    expect(body).toContain('name="topics[]" value="agents"');
    expect(body).toContain('name="topics[]" value="robotics"');
    expect(body).not.toContain('ada@example.com');
    const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(body);
    expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual([]);

    const saved = await t.app.request(
      '/preferences',
      form([
        ['token', token],
        ['language', 'de'],
        ['topics[]', 'agents'],
        ['topics[]', 'code'],
        ['levels[]', 'Accessible'],
        ['levels[]', 'Intermediate'],
        ['onlyMyTopics', '1'],
      ]),
    );
    expect(saved.status).toBe(200);
    const after = await saved.text();
    expect(after).toContain('Saved');
    expect(after).toMatch(/value="agents" checked/);
    expect(await t.store.preferences.get(row.id)).toEqual({
      language: 'de',
      topics: ['agents', 'code'],
      levels: ['Accessible', 'Intermediate'],
      onlyMyTopics: true,
    });
    // JSON too; the first language is stored as "the edition's language".
    const json = await t.app.request('/preferences', jsonPost({ token, language: 'en', topics: ['safety'] }));
    expect(await json.json()).toEqual({
      status: 'saved',
      preferences: { language: null, topics: ['safety'], levels: [], onlyMyTopics: false },
    });
  });

  it('refuses a foreign Origin (403), a bad or other-purpose token (400) and unknown choices (400 naming the field)', async () => {
    const { row, token } = await reader();
    for (const origin of [undefined, 'https://evil.example']) {
      const init = form(
        [
          ['token', token],
          ['topics', 'agents'],
        ],
        origin ? { origin } : {},
      );
      if (!origin) delete (init.headers as Record<string, string>).origin;
      expect((await t.app.request('/preferences', init)).status, String(origin)).toBe(403);
    }
    const unsubscribeToken = t.token('unsubscribe', row);
    for (const bad of ['', 'nonsense', unsubscribeToken, `${token.slice(0, -2)}xx`]) {
      const response = await t.app.request('/preferences', jsonPost({ token: bad, topics: ['agents'] }));
      expect(response.status, bad).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid-token' });
      expect((await t.app.request(`/preferences?token=${bad}`)).status).toBe(400);
    }
    for (const [field, value] of [
      ['topics', ['agents', 'astrology']],
      ['levels', ['Expert']],
      ['language', 'fr'],
    ] as const) {
      const response = await t.app.request('/preferences', jsonPost({ token, [field]: value }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid-input', field });
    }
    const page = await t.app.request(
      '/preferences',
      form([
        ['token', token],
        ['topics', '<script>'],
      ]),
    );
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('The topics field: unknown topic');
    expect(html).not.toContain('<script>');
    expect(await t.store.preferences.get(row.id)).toBeNull();
  });

  it('an expired link or a reader who left gets "not valid"; one client is rate-limited', async () => {
    const { row, token } = await reader();
    const old = t.token('preferences', row, t.clock.time - 366 * 24 * 3600_000);
    expect((await t.app.request(`/preferences?token=${old}`)).status).toBe(400);
    await t.store.subscribers.setStatus(row.id, 'unsubscribed', ['confirmed']);
    expect((await t.app.request('/preferences', jsonPost({ token, topics: ['agents'] }))).status).toBe(400);
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let index = 0; index < 125; index++) {
      statuses.push(
        (await t.app.request(`/preferences?token=${token}`, { headers: { 'x-forwarded-for': ip } })).status,
      );
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  });

  it("the subscribe form's choices are kept for a new reader, never applied to a confirmed one", async () => {
    const fields: [string, string][] = [
      ['language', 'de'],
      ['topics[]', 'agents'],
      ['topics[]', 'evaluation'],
      ['website', ''],
    ];
    expect((await t.app.request('/subscribe', form([['email', 'new@example.com'], ...fields]))).status).toBe(
      200,
    );
    const { row: known } = await reader('known@example.com');
    expect(
      (await t.app.request('/subscribe', form([['email', 'known@example.com'], ...fields]))).status,
    ).toBe(200);
    const bad = await t.app.request(
      '/subscribe',
      jsonPost({ email: 'x@example.com', topics: ['astrology'] }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: 'topics' });
    await t.digest.subscriptions.idle();
    const fresh = await t.store.subscribers.get({ address: 'new@example.com' });
    expect(await t.store.preferences.get(fresh!.id)).toEqual({
      language: 'de',
      topics: ['agents', 'evaluation'],
      levels: [],
      onlyMyTopics: false,
    });
    expect(await t.store.preferences.get(known.id)).toBeNull();
    expect(await t.store.subscribers.get({ address: 'x@example.com' })).toBeNull();
  });
  it("a stranger's subscribe never changes a pending reader's choices, even once the server's hour of memory is over", async () => {
    const chosen: [string, string][] = [
      ['language', 'de'],
      ['topics[]', 'agents'],
    ];
    expect(
      (await t.app.request('/subscribe', form([['email', 'pending.reader@gmail.com'], ...chosen]))).status,
    ).toBe(200);
    await t.digest.subscriptions.idle();
    t.clock.time += 2 * 3600_000;
    const theirs: [string, string][] = [
      ['language', 'en'],
      ['topics[]', 'evaluation'],
    ];
    for (const email of ['pending.reader@gmail.com', 'pendingreader+x@googlemail.com']) {
      expect((await t.app.request('/subscribe', form([['email', email], ...theirs]))).status).toBe(200);
    }
    await t.digest.subscriptions.idle();
    const row = await t.store.subscribers.get({ address: 'pending.reader@gmail.com' });
    expect(row?.status).toBe('pending');
    expect(await t.store.preferences.get(row!.id)).toEqual({
      language: 'de',
      topics: ['agents'],
      levels: [],
      onlyMyTopics: false,
    });
    expect(await t.store.subscribers.get({ address: 'pendingreader+x@googlemail.com' })).toBeNull();
  });
});
