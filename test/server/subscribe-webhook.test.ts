// POST /webhooks/bounce: a shared Bearer secret; bounces and complaints mark addresses; nothing changes without it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';
import { freshIp, type SubscribeApp, subscribeApp, WEBHOOK_SECRET } from './_subscribe-app.js';

describe('POST /webhooks/bounce', () => {
  const store = useTestStore('pglite');
  let site: TempSite;
  let t: SubscribeApp;

  beforeAll(async () => {
    site = await publishTempSite();
  });
  afterAll(() => site?.remove());
  beforeEach(async () => {
    t = await subscribeApp({ store: store(), siteDir: site.dir, server: { softBounceLimit: 2 } });
  });

  const report = (body: unknown, authorization: string | null = `Bearer ${WEBHOOK_SECRET}`) =>
    t.app.request('/webhooks/bounce', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': freshIp(),
        ...(authorization === null ? {} : { authorization }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const status = async (address: string) => (await t.store.subscribers.get({ address }))?.status;

  it('without the secret, with a wrong one or another scheme: 401 and nothing changes', async () => {
    await t.store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    const complaint = { email: 'ada@example.com', type: 'complaint' };
    for (const authorization of [
      null,
      'Bearer ',
      'Bearer wrong-secret-0123456789',
      `Bearer ${WEBHOOK_SECRET}x`,
      `Basic ${Buffer.from(`user:${WEBHOOK_SECRET}`).toString('base64')}`,
      WEBHOOK_SECRET,
    ]) {
      const response = await report(complaint, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect(await status('ada@example.com')).toBe('confirmed');
  });

  it('with no secret in the environment every report is refused, and the log says which variable to set', async () => {
    const unset = await subscribeApp({
      store: store(),
      siteDir: site.dir,
      env: { DIGEST_WEBHOOK_SECRET: '' },
    });
    await unset.store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    const response = await unset.app.request('/webhooks/bounce', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' },
      body: JSON.stringify({ email: 'ada@example.com', type: 'complaint' }),
    });
    expect(response.status).toBe(401);
    expect(unset.logs.join('\n')).toContain('set DIGEST_WEBHOOK_SECRET');
    expect(await status('ada@example.com')).toBe('confirmed');
  });

  it('a complaint unsubscribes, a permanent bounce marks bounced, temporary ones count up to the limit', async () => {
    for (const address of ['ada@example.com', 'bob@example.com', 'cy@example.com']) {
      await t.store.subscribers.put(address, address, 'confirmed');
    }
    const complaint = await report({ email: 'ADA@example.com', type: 'complaint' });
    expect(await complaint.json()).toEqual({
      status: 'ok',
      matched: true,
      subscriber: { status: 'unsubscribed', bounces: 0 },
    });
    expect(await status('ada@example.com')).toBe('unsubscribed');
    // Recorded as a complaint, at the time it unsubscribed her (counted apart: store/mail-outcomes.ts).
    const ada = await t.store.subscribers.get({ address: 'ada@example.com' });
    expect(ada?.complainedAt).not.toBeNull();
    expect(ada?.complainedAt).toBe(ada?.unsubscribedAt);

    await report({ email: 'bob@example.com', type: 'bounce', permanent: true });
    expect((await t.store.subscribers.get({ address: 'bob@example.com' }))?.complainedAt).toBeNull();
    expect(await status('bob@example.com')).toBe('bounced');

    const first = await report({ email: 'cy@example.com', type: 'bounce' });
    expect(await first.json()).toMatchObject({ subscriber: { status: 'confirmed', bounces: 1 } });
    const second = await report({ email: 'cy@example.com', type: 'bounce', permanent: false });
    expect(await second.json()).toMatchObject({ subscriber: { status: 'bounced', bounces: 2 } });
  });

  it('/metrics counts the bounces recorded on a reader, not complaints nor unknown addresses', async () => {
    t = await subscribeApp({
      store: store(),
      siteDir: site.dir,
      env: { DIGEST_METRICS_TOKEN: 'metrics-token-0123456789' },
    });
    const bounced = async () => {
      const headers = { authorization: 'Bearer metrics-token-0123456789' };
      const text = await (await t.app.request('/metrics', { headers })).text();
      return Number(/^digest_mails_bounced_total (\d+)$/m.exec(text)?.[1]);
    };
    await t.store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    expect(await bounced()).toBe(0);
    await report({ email: 'ada@example.com', type: 'bounce' });
    await report({ email: 'ada@example.com', type: 'bounce', permanent: true });
    await report({ email: 'ada@example.com', type: 'complaint' });
    await report({ email: 'nobody@example.com', type: 'bounce' });
    await report({ email: 'ada@example.com', type: 'bounce' }, 'Bearer wrong-secret-0123456789');
    expect(await bounced()).toBe(2);
  });

  it('an unknown address is matched: false; bad bodies are 400 naming the field', async () => {
    expect(await (await report({ email: 'nobody@example.com', type: 'bounce' })).json()).toEqual({
      status: 'ok',
      matched: false,
    });
    const badType = await report({ email: 'ada@example.com', type: 'delivered' });
    expect(badType.status).toBe(400);
    expect(await badType.json()).toMatchObject({ error: 'invalid-input', field: 'type' });
    const badAddress = await report({ email: 'ada@example.com\r\nBcc: x@example.net', type: 'bounce' });
    expect(await badAddress.json()).toMatchObject({ field: 'email' });
    const notJson = await report('{"email":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ field: 'body' });
    const tooBig = await report({ email: 'ada@example.com', type: 'bounce', pad: 'x'.repeat(20_000) });
    expect(tooBig.status).toBe(413);
    expect(await t.store.subscribers.list()).toEqual([]);
  });
});
