import { describe, expect, it } from 'vitest';
import { readSecret } from '../../src/config/secret.js';
import { ConfigError } from '../../src/core/errors.js';
import { createSubscriberTokens, type TokenSubject } from '../../src/subscribers/tokens.js';

const SECRET = Buffer.from('a-test-secret-of-at-least-32-bytes-long!');
const ADA: TokenSubject = { id: '17', address: 'ada@example.com' };
const EVE: TokenSubject = { id: '18', address: 'eve@example.org' };
const people = new Map([ADA, EVE].map((person) => [person.id, person]));
const lookup = (id: string) => people.get(id) ?? null;

function clock(start = Date.parse('2026-05-04T07:00:00Z')) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('subscriber tokens', () => {
  it('verifies its own token for the right purpose and subscriber', async () => {
    const tokens = createSubscriberTokens(SECRET, clock().now);
    const token = tokens.issue('unsubscribe', ADA);
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
    const check = await tokens.verify(token, 'unsubscribe', lookup);
    expect(check).toMatchObject({ ok: true, subscriber: ADA });
  });

  it('refuses a forged or tampered token', async () => {
    const tokens = createSubscriberTokens(SECRET, clock().now);
    const token = tokens.issue('unsubscribe', ADA);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(await tokens.verify(`${token.slice(0, -1)}${last}`, 'unsubscribe', lookup)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const forger = createSubscriberTokens(Buffer.from('another-secret-also-32-bytes-long!!!'), clock().now);
    expect(await tokens.verify(forger.issue('unsubscribe', ADA), 'unsubscribe', lookup)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    // A later expiry written into the token by hand breaks the signature too.
    const [code, id, , signature] = token.split('.');
    const extended = [code, id, 'zzzzzz', signature].join('.');
    expect(await tokens.verify(extended, 'unsubscribe', lookup)).toMatchObject({ ok: false });
    expect(await tokens.verify('not a token', 'unsubscribe', lookup)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses a token moved to another subscriber, or whose address changed', async () => {
    const tokens = createSubscriberTokens(SECRET, clock().now);
    const adaToken = tokens.issue('unsubscribe', ADA);
    const [code, , expiry, signature] = adaToken.split('.');
    const onEve = [code, Buffer.from(EVE.id).toString('base64url'), expiry, signature].join('.');
    expect(await tokens.verify(onEve, 'unsubscribe', lookup)).toEqual({ ok: false, reason: 'bad-signature' });
    // The same id now belonging to another address (a reset database reusing ids).
    const reused = () => ({ id: ADA.id, address: 'mallory@example.net' });
    expect(await tokens.verify(adaToken, 'unsubscribe', reused)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await tokens.verify(adaToken, 'unsubscribe', () => null)).toEqual({
      ok: false,
      reason: 'unknown-subscriber',
    });
  });

  it('refuses a token for the wrong purpose, even with the purpose letter swapped', async () => {
    const tokens = createSubscriberTokens(SECRET, clock().now);
    const confirm = tokens.issue('confirm', ADA);
    expect(await tokens.verify(confirm, 'unsubscribe', lookup)).toEqual({
      ok: false,
      reason: 'wrong-purpose',
    });
    const swapped = `u${confirm.slice(1)}`;
    expect(await tokens.verify(swapped, 'unsubscribe', lookup)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('refuses an expired token and accepts it just before expiry', async () => {
    const time = clock();
    const tokens = createSubscriberTokens(SECRET, time.now);
    const token = tokens.issue('confirm', ADA, 3600_000);
    time.advance(3599_000);
    expect((await tokens.verify(token, 'confirm', lookup)).ok).toBe(true);
    time.advance(1000);
    expect(await tokens.verify(token, 'confirm', lookup)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('readSecret', () => {
  it('explains how to create a missing secret and refuses a short one', () => {
    expect(() => readSecret({})).toThrow(ConfigError);
    expect(() => readSecret({})).toThrow(/DIGEST_SECRET is not set.*openssl rand -base64 48/);
    expect(() => readSecret({ DIGEST_SECRET: 'short' })).toThrow(/too short \(5 bytes; at least 32\)/);
    expect(readSecret({ DIGEST_SECRET: 'x'.repeat(32) }).byteLength).toBe(32);
  });

  it('refuses a short secret when creating the signer', () => {
    expect(() => createSubscriberTokens(Buffer.from('short'), clock().now)).toThrow(/32 bytes/);
  });
});
