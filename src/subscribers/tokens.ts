// Signed, expiring subscriber tokens for confirmation, unsubscribe and preferences links (HMAC-SHA256, constant-time compare).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MIN_SECRET_BYTES, readSecret } from '../config/secret.js';
import type { DigestDeps } from '../deps.js';

export type TokenPurpose = 'confirm' | 'unsubscribe' | 'preferences';

/** What a token is bound to: the subscriber row and its address (a reused id with another address fails). */
export interface TokenSubject {
  id: string;
  address: string;
  /**
   * Which subscription of the reader (its generation): a confirm link is bound to the one it was issued for and dies
   * when that one ends. Absent for unsubscribe links, which keep working whatever came after.
   */
  instance?: string;
}

export type TokenCheck<S extends TokenSubject> =
  | { ok: true; subscriber: S; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'unknown-subscriber' | 'bad-signature' | 'wrong-purpose' | 'expired' };

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  confirm: 48 * 3600_000,
  // Unsubscribe links live in mails people find months later; Gmail/Yahoo expect them to keep working.
  unsubscribe: 365 * 24 * 3600_000,
  // The "your edition" link of every mail: like unsubscribing, choosing must work from an old mail.
  preferences: 365 * 24 * 3600_000,
};

const PURPOSE_CODE: Record<TokenPurpose, string> = { confirm: 'c', unsubscribe: 'u', preferences: 'p' };
const TOKEN_SHAPE = /^([a-z])\.([A-Za-z0-9_-]{1,200})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface SubscriberTokens {
  issue(purpose: TokenPurpose, subject: TokenSubject, lifetimeMs?: number): string;
  /** `lookup` finds the subscriber the token names; the signature is then checked against its address. */
  verify<S extends TokenSubject>(
    token: string,
    purpose: TokenPurpose,
    lookup: (id: string) => Promise<S | null> | S | null,
  ): Promise<TokenCheck<S>>;
}

/**
 * Token: `<purpose>.<base64url id>.<expiry, base-36 seconds>.<base64url HMAC>`, URL-safe, about 70 characters.
 * The HMAC covers purpose, id, address and expiry, so a token cannot be moved to another purpose, reader or date.
 */
export function createSubscriberTokens(secret: Buffer, now: () => number): SubscriberTokens {
  if (secret.byteLength < MIN_SECRET_BYTES)
    throw new Error(`the token secret needs ${MIN_SECRET_BYTES} bytes`);
  const mac = (purpose: string, subject: TokenSubject, expiry: string) =>
    createHmac('sha256', secret)
      .update(`digest-token-v1\n${purpose}\n${subject.id}\n${subject.address}\n${expiry}`)
      .update(subject.instance === undefined ? '' : `\n${subject.instance}`)
      .digest();
  return {
    issue(purpose, subject, lifetimeMs = TOKEN_LIFETIME_MS[purpose]) {
      const code = PURPOSE_CODE[purpose];
      const expiry = Math.floor((now() + lifetimeMs) / 1000).toString(36);
      const signature = mac(code, subject, expiry).toString('base64url');
      return `${code}.${Buffer.from(subject.id).toString('base64url')}.${expiry}.${signature}`;
    },
    async verify(token, purpose, lookup) {
      const match = TOKEN_SHAPE.exec(token);
      if (!match) return { ok: false, reason: 'malformed' };
      const [, code, encodedId, expiry, signature] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const id = Buffer.from(encodedId, 'base64url').toString('utf8');
      const subscriber = await lookup(id);
      if (!subscriber) return { ok: false, reason: 'unknown-subscriber' };
      const expected = mac(code, subscriber, expiry);
      const given = Buffer.from(signature, 'base64url');
      if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) {
        return { ok: false, reason: 'bad-signature' };
      }
      if (code !== PURPOSE_CODE[purpose]) return { ok: false, reason: 'wrong-purpose' };
      const expiresAt = new Date(Number.parseInt(expiry, 36) * 1000);
      if (expiresAt.getTime() <= now()) return { ok: false, reason: 'expired' };
      return { ok: true, subscriber, expiresAt };
    },
  };
}

/** The digest's tokens: signed with DIGEST_SECRET, timed by the clock port. */
export function digestTokens(deps: Pick<DigestDeps, 'env' | 'clock'>): SubscriberTokens {
  return createSubscriberTokens(readSecret(deps.env), () => deps.clock.now().getTime());
}
