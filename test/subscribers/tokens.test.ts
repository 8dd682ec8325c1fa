// Subscriber tokens (subscribers/tokens.ts): signed, expiring, bound to purpose, reader and address; and their edges:
// the signature is checked before the database is asked, ids are canonical and in range, and links
// bound to a subscription die with it. Release 0.1's tokens keep working for what they were issued for.
import { describe, expect, it } from 'vitest';
import { readSecret } from '../../src/config/secret.js';
import { ConfigError } from '../../src/core/errors.js';
import { createSubscriberTokens, type TokenSubject, tokenRowId } from '../../src/subscribers/tokens.js';
import { releaseOneToken } from '../server/_subscribe-app.js';

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
    const [code, , ...rest] = adaToken.split('.');
    const onEve = [code, Buffer.from(EVE.id).toString('base64url'), ...rest].join('.');
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

const NOW = Date.parse('2026-05-04T07:00:00Z');

/** A lookup that counts how often the "database" was asked. */
function countingLookup(subject: TokenSubject | null = ADA) {
  const asked: string[] = [];
  return {
    asked,
    lookup: (id: string) => {
      asked.push(id);
      return subject && subject.id === id ? subject : null;
    },
  };
}

const legacyToken = (code: 'c' | 'u' | 'p', subject: TokenSubject, expiresAt: number) =>
  releaseOneToken(code, subject, expiresAt, SECRET.toString());

describe('token ids', () => {
  it('names rows 1..2^31-1 in canonical base64url only', () => {
    const encode = (id: string) => Buffer.from(id).toString('base64url');
    expect(tokenRowId(encode('1'))).toBe('1');
    expect(tokenRowId(encode('2147483647'))).toBe('2147483647');
    expect(tokenRowId(encode('2147483648'))).toBeNull();
    expect(tokenRowId(encode('999999999999999'))).toBeNull();
    expect(tokenRowId(encode('0'))).toBeNull();
    expect(tokenRowId(encode('017'))).toBeNull();
    expect(tokenRowId(encode('-1'))).toBeNull();
    // "MR" decodes to "1" like "MQ", with other trailing bits: not the canonical spelling.
    expect(tokenRowId('MQ')).toBe('1');
    expect(tokenRowId('MR')).toBeNull();
    expect(tokenRowId('MQ=')).toBeNull();
  });
});

describe('verify', () => {
  const tokens = createSubscriberTokens(SECRET, () => NOW);

  it('a forged, out-of-range, non-canonical or expired token is refused without asking the database', async () => {
    const good = tokens.issue('preferences', { ...ADA, instance: '1' });
    const parts = good.split('.');
    const forged = [...parts.slice(0, -1), 'A'.repeat(43)].join('.');
    const huge = [parts[0], Buffer.from('999999999999999').toString('base64url'), ...parts.slice(2)].join(
      '.',
    );
    const big = [parts[0], Buffer.from('2147483648').toString('base64url'), ...parts.slice(2)].join('.');
    const nonCanonical = [parts[0], 'MR', ...parts.slice(2)].join('.');
    const expired = createSubscriberTokens(SECRET, () => NOW - 400 * 24 * 3600_000).issue('preferences', ADA);
    const legacyHuge = `p.${Buffer.from('999999999999999').toString('base64url')}.zzzzzz.${'A'.repeat(43)}`;
    const legacyExpired = legacyToken('p', ADA, NOW - 1000);
    const { asked, lookup } = countingLookup();
    expect(await tokens.verify(forged, 'preferences', lookup)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    for (const token of [huge, big, nonCanonical, legacyHuge]) {
      expect(await tokens.verify(token, 'preferences', lookup), token).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(await tokens.verify(expired, 'preferences', lookup)).toEqual({ ok: false, reason: 'expired' });
    expect(await tokens.verify(legacyExpired, 'preferences', lookup)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await tokens.verify(good, 'unsubscribe', lookup)).toEqual({ ok: false, reason: 'wrong-purpose' });
    expect(asked).toEqual([]);
    expect(await tokens.verify(good, 'preferences', lookup)).toMatchObject({ ok: true });
    expect(asked).toEqual(['17']);
  });

  it('a link bound to a subscription dies when the reader left and came back', async () => {
    const first = tokens.issue('preferences', { ...ADA, instance: '1' });
    expect((await tokens.verify(first, 'preferences', () => ({ ...ADA, instance: '1' }))).ok).toBe(true);
    expect(await tokens.verify(first, 'preferences', () => ({ ...ADA, instance: '2' }))).toEqual({
      ok: false,
      reason: 'other-subscription',
    });
    // An unsubscribe link names no subscription: it keeps working.
    const leave = tokens.issue('unsubscribe', ADA);
    expect((await tokens.verify(leave, 'unsubscribe', () => ADA)).ok).toBe(true);
  });

  it("release 0.1's tokens still verify against the row; its preferences links only for the first subscription", async () => {
    const later = NOW + 3600_000;
    const unsubscribe = legacyToken('u', ADA, later);
    expect((await tokens.verify(unsubscribe, 'unsubscribe', () => ADA)).ok).toBe(true);
    const confirm = legacyToken('c', { ...ADA, instance: '1' }, later);
    expect((await tokens.verify(confirm, 'confirm', () => ({ ...ADA, instance: '1' }))).ok).toBe(true);
    const preferences = legacyToken('p', ADA, later);
    expect((await tokens.verify(preferences, 'preferences', () => ({ ...ADA, instance: '1' }))).ok).toBe(
      true,
    );
    expect(await tokens.verify(preferences, 'preferences', () => ({ ...ADA, instance: '2' }))).toEqual({
      ok: false,
      reason: 'other-subscription',
    });
    expect(
      await tokens.verify(unsubscribe, 'unsubscribe', () => ({ ...ADA, address: 'eve@example.org' })),
    ).toEqual({ ok: false, reason: 'bad-signature' });
  });
});
