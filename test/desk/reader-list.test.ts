// The readers on the desk, in process: list, search, filters and counts; add with and without asserted consent;
// a CSV import (multipart) with each outcome named; one reader's record, export and removal — every change behind
// the session, the CSRF token and the write limit, and audited without the reader's address.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { type Browserish, createDeskHarness, type DeskHarness, EDITOR, signIn, XSS } from './_desk.js';

const MAIL = { smtp: { host: '127.0.0.1', port: 2525, requireTls: false } };

describe('the readers on the desk', () => {
  const store = useTestStore();
  let harness: DeskHarness;
  let client: Browserish;

  async function start(email: Record<string, unknown> | null = MAIL): Promise<void> {
    harness = await createDeskHarness(store(), { build: false, ...(email ? { email } : {}) });
    client = await signIn(harness.app);
  }
  afterEach(() => harness.close());

  function upload(csv: string, fields: Record<string, string>, csrf: string | null = client.csrf) {
    const body = new FormData();
    if (csrf !== null) body.set('csrf', csrf);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set('file', new Blob([csv], { type: 'text/csv' }), 'readers.csv');
    return harness.app.request('/admin/readers/import', {
      method: 'POST',
      body,
      headers: { cookie: client.cookie },
    });
  }
  const auditActions = async () => (await store().desk.listAudit()).map((entry) => entry.action);

  describe('with mail set up', () => {
    beforeEach(() => start());

    it('adds a reader as pending with a confirmation mail queued, or confirmed on the consent box, audited', async () => {
      const mailed = await client.post('/admin/readers/add', { email: 'Ada@Example.com' });
      expect(mailed.status).toBe(303);
      expect(mailed.headers.get('location')).toBe('/admin/readers?done=added-mailed');
      const ada = await store().subscribers.get({ address: 'ada@example.com' });
      expect(ada).toMatchObject({ status: 'pending', consentBy: null });
      expect((await store().outbox.claim('w', 10, 60)).map((mail) => mail.subscriberId)).toEqual([ada!.id]);

      const consented = await client.post('/admin/readers/add', { email: 'bob@example.com', consent: 'yes' });
      expect(consented.headers.get('location')).toBe('/admin/readers?done=added-confirmed');
      expect(await store().subscribers.get({ address: 'bob@example.com' })).toMatchObject({
        status: 'confirmed',
        consentBy: EDITOR.email,
      });
      const page = await (await client.get('/admin/readers?done=added-confirmed')).text();
      expect(page).toContain('Added as confirmed, with your consent assertion recorded.');
      // Each reader's page shows the recorded history: how they came, and by whom.
      const adaPage = await (await client.get(`/admin/readers/${ada!.id}`)).text();
      expect(adaPage).toContain(`<td>pending</td><td>add by ${EDITOR.email}</td>`);
      const bob = await store().subscribers.get({ address: 'bob@example.com' });
      const bobPage = await (await client.get(`/admin/readers/${bob!.id}`)).text();
      expect(bobPage).toContain(`<td>confirmed</td><td>add, consent asserted by ${EDITOR.email}</td>`);
      const audit = await store().desk.listAudit();
      expect(audit.map((entry) => entry.action)).toContain('reader-added');
      expect(JSON.stringify(audit)).not.toContain('ada@example.com');

      const bad = await client.post('/admin/readers/add', { email: `x@example.com\r\nBcc: ${XSS}` });
      expect(bad.status).toBe(400);
      expect(await bad.text()).not.toContain('<script>');
    });

    it('refuses a change without the CSRF token or a session, and changes nothing', async () => {
      expect(
        (await client.post('/admin/readers/add', { email: 'c@example.com' }, { csrf: null })).status,
      ).toBe(403);
      expect((await upload('email\nd@example.com\n', {}, 'wrong')).status).toBe(403);
      const anonymous = await harness.app.request('/admin/readers/add', { method: 'POST' });
      expect(anonymous.status).toBe(401);
      expect((await harness.app.request('/admin/readers')).status).toBe(302);
      expect(await store().readers.counts()).toMatchObject({ pending: 0, confirmed: 0 });
    });

    it('imports a CSV: each outcome named, invalid lines by number, nobody who left subscribed again', async () => {
      const left = await store().subscribers.put('left@example.com', 'left@example.com', 'confirmed');
      await store().subscribers.setStatus(left.id, 'unsubscribed', ['confirmed']);
      await store().subscribers.put('in@example.com', 'in@example.com', 'confirmed');
      const csv = [
        'name,email',
        'A,new@example.com',
        'B,left@example.com',
        'C,in@example.com',
        `D,${XSS}`,
        'E,new@example.com',
      ];
      const response = await upload(csv.join('\r\n'), {});
      expect(response.status).toBe(200);
      const page = await response.text();
      expect(page).toContain(
        '1 added and sent a confirmation mail, 1 confirmation mail(s) queued, 1 already subscribed, 1 already unsubscribed or bounced (left so), 1 duplicate(s), 1 invalid line(s).',
      );
      expect(page).toMatch(/<td>5<\/td><td>&lt;script&gt;/);
      expect(page).not.toContain('<script>window');
      expect((await store().subscribers.get({ id: left.id }))?.status).toBe('unsubscribed');
      expect(await store().outbox.claim('w', 10, 60)).toHaveLength(1);

      const consented = await (
        await upload('email\nfresh@example.com\nnew@example.com\n', { consent: 'yes' })
      ).text();
      expect(consented).toContain(
        `1 added as confirmed (consent asserted by ${EDITOR.email}), 1 pending confirmed`,
      );
      expect(await store().subscribers.get({ address: 'fresh@example.com' })).toMatchObject({
        status: 'confirmed',
        consentBy: EDITOR.email,
      });
      expect(await auditActions()).toEqual(expect.arrayContaining(['readers-imported']));
    });

    it('lists newest first with search, status filter, counts and a next page; the reader page, export and removal', async () => {
      for (let index = 0; index < 55; index++)
        await store().subscribers.put(`r${index}@example.com`, `r${index}@example.com`, 'confirmed');
      const gone = await store().subscribers.put(
        `${'z'.repeat(5)}@example.org`,
        'zzzzz@example.org',
        'pending',
      );
      const first = await (await client.get('/admin/readers')).text();
      expect(first).toContain('<a href="/admin/readers?status=confirmed">55</a>');
      expect(first.indexOf('zzzzz@example.org')).toBeLessThan(first.indexOf('r54@example.com'));
      const next = /href="\/admin\/readers\?(before=\d+)" rel="next"/.exec(first);
      expect(next).not.toBeNull();
      const second = await (await client.get(`/admin/readers?${next![1]}`)).text();
      expect(second).toContain('r0@example.com');
      expect(second).not.toContain('r54@example.com');
      const searched = await (await client.get('/admin/readers?q=R1&status=confirmed')).text();
      expect(searched.match(/<th scope="row">/g)).toHaveLength(11);
      expect(await (await client.get(`/admin/readers?q=${encodeURIComponent(XSS)}`)).text()).not.toContain(
        '<script>window',
      );

      const reader = await (await client.get(`/admin/readers/${gone.id}`)).text();
      expect(reader).toContain('Status history');
      expect(reader).toContain(`action="/admin/readers/${gone.id}/remove"`);
      const exported = await client.get(`/admin/readers/${gone.id}/export`);
      expect(exported.headers.get('content-type')).toContain('application/json');
      const data = await exported.json();
      expect(data).toEqual(
        JSON.parse(JSON.stringify(await store().preferences.exportSubscriber('zzzzz@example.org'))),
      );

      expect((await client.post(`/admin/readers/${gone.id}/remove`, {})).status).toBe(400);
      const removed = await client.post(`/admin/readers/${gone.id}/remove`, { sure: 'yes' });
      expect(removed.headers.get('location')).toBe('/admin/readers?done=removed');
      expect(await store().subscribers.get({ id: gone.id })).toBeNull();
      expect((await client.get(`/admin/readers/${gone.id}`)).status).toBe(404);
      const audit = await store().desk.listAudit();
      expect(audit.find((entry) => entry.action === 'reader-removed')?.detail).toEqual({
        subscriberId: gone.id,
      });
      expect(JSON.stringify(audit)).not.toContain('zzzzz');
    });
  });

  describe('without mail set up', () => {
    beforeEach(() => start(null));

    it('offers only the consent path, and refuses an add that would wait for a mail that cannot go out', async () => {
      const page = await (await client.get('/admin/readers')).text();
      expect(page).toMatch(/id="add-consent" name="consent" value="yes" required/);
      const refused = await client.post('/admin/readers/add', { email: 'ada@example.com' });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('publish.email.smtp');
      expect(await store().subscribers.get({ address: 'ada@example.com' })).toBeNull();
    });
  });
});
