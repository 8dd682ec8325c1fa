// Subscribe, confirm and unsubscribe through app.request(), on a real PGlite store and a real SMTP server on
// loopback: double opt-in, one-click unsubscribe, and bad input and attacks.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeMail } from '../../src/subscribers/manage.js';
import { useTestStore } from '../support/database.js';
import { type LoopbackSmtp, linkIn, type ReceivedMail, startSmtp } from '../support/smtp-inbox.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';
import {
  BASE_URL,
  formPost,
  freshIp,
  jsonPost,
  ORIGIN,
  releaseOneToken,
  type SubscribeApp,
  subscribeApp,
} from './_subscribe-app.js';

describe('subscribe, confirm, unsubscribe (app.request)', () => {
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
    smtp.received.length = 0;
    t = await subscribeApp({ store: store(), siteDir: site.dir, smtpPort: smtp.port });
  });
  // A test's mails never arrive in the next one's inbox.
  afterEach(() => t.digest.subscriptions.idle());

  /** Every accepted request is stored and every queued mail has reached the SMTP server (or failed). */
  const mailsSettled = () => t.digest.subscriptions.idle();
  // Requests are stored after the answer: read the store once they have been.
  const row = async (address: string) => {
    await mailsSettled();
    return t.store.subscribers.get({ address });
  };
  const stored = async () => {
    await mailsSettled();
    return t.store.subscribers.list();
  };
  /** The confirm page's button: a POST from this site with the link's token. */
  const confirmPost = (token: string, app = t.app) => app.request('/confirm', formPost({ token }));
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  it('a form subscribes: "check your inbox", one pending row, one confirmation mail whose link confirms', async () => {
    const response = await t.app.request('/subscribe', formPost({ email: 'ada@example.com', website: '' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('Check your inbox');
    expect(await row('ada@example.com')).toMatchObject({ status: 'pending' });

    const mail = await smtp.next(1);
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.parsed.subject).toBe('Confirm your subscription to Test Digest');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Test Digest', address: 'digest@example.org' }]);
    expect(mail.parsed.html).toContain('Confirm my subscription');
    const link = linkIn(mail, `${BASE_URL}confirm?token=`);
    expect(mail.parsed.html).toContain(link.replaceAll('&', '&amp;'));

    // Opening the link (a reader, or a mail scanner before them) only shows a button.
    for (let index = 0; index < 2; index++) {
      const shown = await t.app.request(new URL(link).pathname + new URL(link).search);
      expect(shown.status).toBe(200);
      const page = await shown.text();
      expect(page).toContain('<button type="submit">Confirm my subscription</button>');
      expect(page).toContain(`<input type="hidden" name="token" value="${tokenOf(link)}">`);
      expect(page).toContain('action="https://digest.example.org/confirm"');
    }
    expect(await row('ada@example.com')).toMatchObject({ status: 'pending' });
    // The button's POST must come from this site, like every other form.
    const forged = await t.app.request(
      '/confirm',
      formPost({ token: tokenOf(link) }, { origin: 'https://evil.example' }),
    );
    expect(forged.status).toBe(403);
    expect(await row('ada@example.com')).toMatchObject({ status: 'pending' });
    const confirmed = await confirmPost(tokenOf(link));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('You are subscribed');
    expect(await row('ada@example.com')).toMatchObject({ status: 'confirmed' });
    // A second click changes nothing and still says so.
    const again = await confirmPost(tokenOf(link));
    expect(again.status).toBe(200);
    expect(await row('ada@example.com')).toMatchObject({ status: 'confirmed' });
    await mailsSettled();
    expect(smtp.received).toHaveLength(1);
  });

  it('JSON in, JSON out; the same answer for a new, a pending and a confirmed address (no enumeration)', async () => {
    const answers: { status: number; body: string }[] = [];
    const ask = async (email: string) => {
      const response = await t.app.request('/subscribe', jsonPost({ email }));
      answers.push({ status: response.status, body: await response.text() });
    };
    await t.store.subscribers.put('known@example.com', 'known@example.com', 'confirmed');
    await ask('new@example.com');
    await ask('new@example.com');
    await ask('known@example.com');
    expect(answers).toEqual(Array(3).fill({ status: 200, body: '{"status":"ok"}' }));
    await mailsSettled();
    // One mail: the new address's; none for the confirmed reader, none again within the hour.
    expect(smtp.received.map((mail) => mail.to)).toEqual([['new@example.com']]);
  });

  it('one inbox: other case, a +tag or a dot variant is the same reader, one row and one mail', async () => {
    await t.app.request('/subscribe', jsonPost({ email: 'ada.l@gmail.com' }));
    await t.app.request('/subscribe', jsonPost({ email: '  Ada.L@GMAIL.com ' }));
    const tagged = await t.app.request('/subscribe', jsonPost({ email: 'ada+news@example.com' }));
    expect(tagged.status).toBe(200);
    await t.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    await t.app.request('/subscribe', jsonPost({ email: 'a.d.a.l+x@googlemail.com' }));
    const rows = await stored();
    // The address first typed stays the reader's; the variants found its row by mailbox.
    expect(rows.map((entry) => [entry.address, entry.mailbox])).toEqual([
      ['ada.l@gmail.com', 'adal@gmail.com'],
      ['ada+news@example.com', 'ada@example.com'],
    ]);
    await mailsSettled();
    expect(smtp.received.map((mail) => mail.to)).toEqual([['ada.l@gmail.com'], ['ada+news@example.com']]);
  });

  it('an invalid address is a 400 naming the field "email", in the client format; nothing stored or sent', async () => {
    const json = await t.app.request('/subscribe', jsonPost({ email: 'not-an-address' }));
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({
      error: 'invalid-input',
      field: 'email',
      message: 'expected an address like name@example.com',
    });
    const missing = await t.app.request('/subscribe', jsonPost({}));
    expect(await missing.json()).toMatchObject({ field: 'email', message: 'an email address is required' });
    const form = await t.app.request('/subscribe', formPost({ email: 'ada@' }));
    expect(form.status).toBe(400);
    const page = await form.text();
    expect(page).toContain('The email field: expected an address like name@example.com.');
    expect(page).toContain('action="https://digest.example.org/subscribe"');
    expect(await stored()).toEqual([]);
    await mailsSettled();
    expect(smtp.received).toEqual([]);
  });

  it('header injection through the address (CR/LF, a second recipient) is refused: 400, no row, no mail', async () => {
    for (const email of [
      'ada@example.com\r\nBcc: victim@example.net',
      'ada@example.com\nSubject: hi',
      'ada@example.com%0d%0aBcc:victim@example.net',
      'ada@example.com, victim@example.net',
      'Ada <ada@example.com>',
    ]) {
      const response = await t.app.request('/subscribe', jsonPost({ email }));
      expect(response.status, email).toBe(400);
      expect(((await response.json()) as { field: string }).field).toBe('email');
      const form = await t.app.request('/subscribe', formPost({ email }));
      expect(form.status, email).toBe(400);
    }
    expect(await stored()).toEqual([]);
    await mailsSettled();
    expect(smtp.received).toEqual([]);
  });

  it('a filled honeypot gets the same answer and nothing is stored or sent', async () => {
    const response = await t.app.request(
      '/subscribe',
      formPost({ email: 'bot@example.com', website: 'http://spam.example' }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Check your inbox');
    const json = await t.app.request('/subscribe', jsonPost({ email: 'bot@example.com', website: 'x' }));
    expect(await json.json()).toEqual({ status: 'ok' });
    expect(await stored()).toEqual([]);
    await mailsSettled();
    expect(smtp.received).toEqual([]);
  });

  it('a POST without a matching Origin is 403 and changes nothing', async () => {
    for (const origin of [undefined, 'https://evil.example', 'http://digest.example.org', 'null']) {
      const init = jsonPost({ email: 'ada@example.com' }, origin ? { origin } : {});
      if (!origin) delete (init.headers as Record<string, string>).origin;
      const response = await t.app.request('/subscribe', init);
      expect(response.status, String(origin)).toBe(403);
    }
    expect(await stored()).toEqual([]);
  });

  it('an oversized body is 413, announced or not', async () => {
    const big = `email=ada%40example.com&filler=${'x'.repeat(9 * 1024)}`;
    const response = await t.app.request('/subscribe', { ...formPost({}), body: big });
    expect(response.status).toBe(413);
    const oneClick = await t.app.request('/unsubscribe?token=x', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    expect(oneClick.status).toBe(413);
    expect(await stored()).toEqual([]);
  });

  it('a flood from one address is cut at 10 a minute with 429 and Retry-After; others go on', async () => {
    const ip = '203.0.113.9';
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const response = await t.app.request(
        '/subscribe',
        jsonPost({ email: `flood${index}@example.com` }, { 'x-forwarded-for': ip }),
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await response.json()).toMatchObject({ error: 'too-many-requests' });
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const form = await t.app.request(
      '/subscribe',
      formPost({ email: 'form@example.com' }, { 'x-forwarded-for': ip }),
    );
    expect(form.status).toBe(429);
    expect(await form.text()).toContain('Too many requests');
    const other = await t.app.request('/subscribe', jsonPost({ email: 'other@example.com' }));
    expect(other.status).toBe(200);
    expect((await stored()).length).toBe(11);
  });

  it('a burst of new readers from many addresses: every one answered at once, stored, and mailed once', async () => {
    const addresses = Array.from({ length: 120 }, (_, index) => `burst${index}@example.com`);
    const responses = await Promise.all(
      addresses.map((email, index) =>
        t.app.request('/subscribe', jsonPost({ email }, { 'x-forwarded-for': `192.0.2.${index}` })),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(addresses.map(() => 200));
    const rows = await stored();
    expect(rows.map((subscriber) => subscriber.address).sort()).toEqual([...addresses].sort());
    expect(rows.every((subscriber) => subscriber.status === 'pending')).toBe(true);
    await smtp.next(addresses.length);
    await mailsSettled();
    expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual([...addresses].sort());
  });

  it('forged, expired, cross-subscriber and wrong-purpose confirm tokens are refused and change nothing', async () => {
    const ada = await t.store.subscribers.request('ada@example.com', 'ada@example.com');
    const bob = await t.store.subscribers.request('bob@example.com', 'bob@example.com');
    const good = t.token('confirm', ada);
    const [code, id, expiry, signature] = good.split('.') as [string, string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    const bobId = Buffer.from(String(bob.id)).toString('base64url');
    const refused = {
      tampered: `${code}.${id}.${expiry}.${flipped}`,
      'later expiry': `${code}.${id}.${(Number.parseInt(expiry, 36) + 3600).toString(36)}.${signature}`,
      'another subscriber': `${code}.${bobId}.${expiry}.${signature}`,
      'another address under that id': t.token('confirm', { id: ada.id, address: 'eve@example.com' }),
      'wrong purpose': t.token('unsubscribe', ada),
      expired: t.token('confirm', ada, t.clock.time - 49 * 3600_000),
      'no token': '',
      garbage: '<script>alert(1)</script>',
    };
    for (const [what, token] of Object.entries(refused)) {
      for (const response of [
        await t.app.request(`/confirm?token=${encodeURIComponent(token)}`),
        await confirmPost(token),
      ]) {
        expect(response.status, what).toBe(400);
        const page = await response.text();
        expect(page, what).toContain('This link does not work');
        expect(page).not.toContain('<script>alert');
      }
    }
    expect((await row('ada@example.com'))?.status).toBe('pending');
    expect((await row('bob@example.com'))?.status).toBe('pending');
    // The same token with the clock moved past its 48 hours.
    t.clock.time += 49 * 3600_000;
    expect((await confirmPost(good)).status).toBe(400);
    t.clock.time -= 49 * 3600_000;
    expect((await t.app.request(`/confirm?token=${good}`)).status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('pending');
    expect((await confirmPost(good)).status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('confirmed');
    expect((await row('bob@example.com'))?.status).toBe('pending');
  });

  it('GET /unsubscribe only shows a button; POST (form or RFC 8058 one-click, no Origin) unsubscribes', async () => {
    const ada = await t.store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    const token = t.token('unsubscribe', ada);
    for (let index = 0; index < 3; index += 1) {
      const shown = await t.app.request(`/unsubscribe?token=${token}`);
      expect(shown.status).toBe(200);
      const page = await shown.text();
      expect(page).toContain('Stop sending Test Digest to a…@example.com?');
      expect(page).toContain(`<input type="hidden" name="token" value="${token}">`);
      expect(page).toContain('<button type="submit">Unsubscribe</button>');
      expect(page).toContain('action="https://digest.example.org/unsubscribe"');
    }
    const head = await t.app.request(`/unsubscribe?token=${token}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('confirmed');

    // What Gmail's servers send: no Origin, no cookie, the token in the URL.
    const oneClick = await t.app.request(`/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('You are unsubscribed');
    expect(await row('ada@example.com')).toMatchObject({ status: 'unsubscribed' });
    // Twice is still fine.
    const twice = await t.app.request(`/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(await twice.json()).toEqual({ status: 'unsubscribed' });

    // The button of the GET page: the token in the form body.
    const bob = await t.store.subscribers.put('bob@example.com', 'bob@example.com', 'confirmed');
    const button = await t.app.request('/unsubscribe', formPost({ token: t.token('unsubscribe', bob) }));
    expect(button.status).toBe(200);
    expect((await row('bob@example.com'))?.status).toBe('unsubscribed');
  });

  it('forged, cross-subscriber, wrong-purpose and expired unsubscribe tokens change nothing', async () => {
    const ada = await t.store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    const bob = await t.store.subscribers.put('bob@example.com', 'bob@example.com', 'confirmed');
    const good = t.token('unsubscribe', ada);
    const [code, , expiry, signature] = good.split('.') as [string, string, string, string];
    const refused = [
      `${code}.${Buffer.from(String(bob.id)).toString('base64url')}.${expiry}.${signature}`,
      `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`,
      t.token('confirm', ada),
      t.token('unsubscribe', ada, t.clock.time - 366 * 24 * 3600_000),
      'u.MQ.zzzzzz.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ];
    for (const token of refused) {
      expect((await t.app.request(`/unsubscribe?token=${token}`)).status, token).toBe(400);
      const post = await t.app.request(`/unsubscribe?token=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(post.status, token).toBe(400);
      expect(await post.text()).toContain('nothing was changed');
    }
    expect((await row('ada@example.com'))?.status).toBe('confirmed');
    expect((await row('bob@example.com'))?.status).toBe('confirmed');
  });

  it('a reader who left can subscribe again at once: the row is pending again', async () => {
    await t.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    const ada = (await row('ada@example.com'))!;
    const oneClick = await t.app.request(`/unsubscribe?token=${t.token('unsubscribe', ada)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('unsubscribed');
    await t.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    expect((await row('ada@example.com'))?.status).toBe('pending');
  });

  it('unsubscribe, then subscribe again within the hour: a new confirmation mail, and the old link is dead', async () => {
    await t.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    const first = tokenOf(linkIn(await smtp.next(1), `${BASE_URL}confirm?token=`));
    const ada = (await row('ada@example.com'))!;
    const leave = await t.app.request('/unsubscribe', formPost({ token: t.token('unsubscribe', ada) }));
    expect(leave.status).toBe(200);
    // The link of the subscription that ended confirms nothing.
    expect((await t.app.request(`/confirm?token=${first}`)).status).toBe(400);
    expect((await confirmPost(first)).status).toBe(400);
    expect((await row('ada@example.com'))?.status).toBe('unsubscribed');

    const again = await t.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    expect(await again.json()).toEqual({ status: 'ok' });
    const second = tokenOf(linkIn(await smtp.next(2), `${BASE_URL}confirm?token=`));
    expect(second).not.toBe(first);
    expect(await row('ada@example.com')).toMatchObject({ status: 'pending', generation: 2 });
    // Still dead in the new subscription; the new link works.
    expect((await confirmPost(first)).status).toBe(400);
    expect((await row('ada@example.com'))?.status).toBe('pending');
    expect((await confirmPost(second)).status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('confirmed');
    await mailsSettled();
    expect(smtp.received).toHaveLength(2);
  });

  it('a confirm link of the release before generations still confirms the first subscription, and only it', async () => {
    const ada = await t.store.subscribers.request('ada@example.com', 'ada@example.com');
    const day = t.clock.time + 24 * 3600_000;
    const unbound = releaseOneToken('c', { id: String(ada.id), address: ada.address }, day);
    await t.store.subscribers.setStatus(ada.id, 'unsubscribed', ['pending']);
    await t.store.subscribers.request('ada@example.com', 'ada@example.com');
    expect((await confirmPost(unbound)).status).toBe(400);
    const bob = await t.store.subscribers.request('bob@example.com', 'bob@example.com');
    const old = releaseOneToken('c', { id: String(bob.id), address: bob.address }, day);
    expect((await confirmPost(old)).status).toBe(200);
    expect((await row('bob@example.com'))?.status).toBe('confirmed');
    expect((await row('ada@example.com'))?.status).toBe('pending');
  });

  it('the honeypot refuses any non-empty value: a repeated field, a JSON array, a number', async () => {
    const repeated = await t.app.request('/subscribe', {
      ...formPost({}),
      body: 'email=bot1%40example.com&website=a&website=',
    });
    expect(repeated.status).toBe(200);
    for (const website of [['a'], 1, { a: 1 }, true]) {
      const response = await t.app.request('/subscribe', jsonPost({ email: 'bot2@example.com', website }));
      expect(response.status).toBe(200);
    }
    expect(await stored()).toEqual([]);
    // An empty one is a person's.
    await t.app.request('/subscribe', jsonPost({ email: 'person@example.com', website: '' }));
    expect((await stored()).map((entry) => entry.address)).toEqual(['person@example.com']);
  });

  it('a mail the SMTP server refuses for good (550) is given up with its reason: degraded, listed, not retried', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const refusal = Object.assign(new Error('5.1.1 no such mailbox here'), { responseCode: 550 });
        callback(address.address.startsWith('nobody@') ? refusal : undefined);
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const app = await subscribeApp({
        store: store(),
        siteDir: site.dir,
        smtpPort: (refusing.server.address() as AddressInfo).port,
      });
      const answer = await app.app.request('/subscribe', jsonPost({ email: 'nobody@example.com' }));
      expect(answer.status).toBe(200);
      await app.digest.subscriptions.idle();
      expect(await app.digest.subscriptions.mailStatus()).toMatchObject({ status: 'degraded', waiting: 0 });
      const listed = [];
      for await (const subscriber of await app.digest.subscribers.list()) listed.push(subscriber);
      expect(listed).toHaveLength(1);
      expect(listed[0]!.mail).toMatchObject({ kind: 'confirmation', state: 'failed', attempts: 1 });
      expect(describeMail(listed[0]!.mail)).toMatch(
        /^confirmation mail failed: 550 5\.1\.1 no such mailbox here/,
      );
      // Given up: another pass of the worker tries nothing.
      await app.digest.subscriptions.idle();
      expect((await app.store.outbox.mailProblems([listed[0]!.id]))[0]).toMatchObject({
        state: 'failed',
        attempts: 1,
      });
      await app.digest.subscriptions.stopOutbox();
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('no SMTP server configured: subscribing answers 503 and stores nothing', async () => {
    const noMail = await subscribeApp({ store: store(), siteDir: site.dir });
    const response = await noMail.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    expect(response.status).toBe(503);
    await noMail.digest.subscriptions.idle();
    expect(await stored()).toEqual([]);
  });

  it('no base URL: the routes are not there (the site answers 405 to a POST)', async () => {
    const bare = await subscribeApp({
      store: store(),
      siteDir: site.dir,
      smtpPort: smtp.port,
      baseUrl: null,
    });
    expect((await bare.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }))).status).toBe(405);
  });

  it('a welcome mail follows confirmation when server.welcomeMail is on, with both List-Unsubscribe headers', async () => {
    const welcoming = await subscribeApp({
      store: store(),
      siteDir: site.dir,
      smtpPort: smtp.port,
      server: { welcomeMail: true },
    });
    await welcoming.app.request('/subscribe', jsonPost({ email: 'ada@example.com' }));
    const confirmation = await smtp.next(1);
    const link = linkIn(confirmation, `${BASE_URL}confirm?token=`);
    // The preferences page works for a pending reader, so the confirmation mail carries the link too.
    await expectPreferencesLink(confirmation, welcoming.app);
    expect((await confirmPost(tokenOf(link), welcoming.app)).status).toBe(200);
    const welcome = await smtp.next(2);
    expect(welcome.parsed.subject).toBe('Welcome to Test Digest');
    await expectPreferencesLink(welcome, welcoming.app);
    await welcoming.digest.subscriptions.idle();
    const exported = await welcoming.digest.subscribers.exportReader({ email: 'ada@example.com' });
    expect(exported.outbox.map(({ kind, state, attempts }) => ({ kind, state, attempts }))).toEqual([
      { kind: 'confirmation', state: 'sent', attempts: 1 },
      { kind: 'welcome', state: 'sent', attempts: 1 },
    ]);
    expect(JSON.stringify(exported)).not.toContain('token');
    const unsubscribe = linkIn(welcome, `${BASE_URL}unsubscribe?token=`);
    const headers = welcome.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');
    expect(`\r\n${headers}`).toContain(`\r\nList-Unsubscribe: <${unsubscribe}>\r\n`);
    const url = new URL(unsubscribe);
    const oneClick = await welcoming.app.request(url.pathname + url.search, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await row('ada@example.com'))?.status).toBe('unsubscribed');
    await welcoming.digest.subscriptions.idle();
  });

  /** The mail's text and HTML parts both carry the reader's signed /preferences link, and it opens their page. */
  async function expectPreferencesLink(mail: ReceivedMail, app: SubscribeApp['app']): Promise<void> {
    const link = linkIn(mail, `${BASE_URL}preferences?token=`);
    expect(String(mail.parsed.html)).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    const url = new URL(link);
    const page = await app.request(url.pathname + url.search, { headers: { 'x-forwarded-for': freshIp() } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('a…@example.com');
  }

  it('the pages the routes answer with name the site and link home', async () => {
    const response = await t.app.request('/subscribe', formPost({ email: 'ada@example.com' }));
    const page = await response.text();
    expect(page).toContain('<title>Check your inbox — Test Digest</title>');
    expect(page).toContain(`href="${BASE_URL}index.html"`);
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'");
    await mailsSettled();
  });

  it('webhook: the origin check does not apply, a Bearer secret does', async () => {
    expect(ORIGIN).toBe(new URL(BASE_URL).origin);
    const response = await t.app.request('/webhooks/bounce', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ email: 'ada@example.com', type: 'complaint' }),
    });
    expect(response.status).toBe(401);
  });
});
