// Signed, expiring subscriber tokens for confirmation, unsubscribe and preferences links (HMAC-SHA256, constant-time
// compare). The signature is checked before anything is read from the database: a forged, truncated or out-of-range
// token costs one HMAC and no query.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MIN_SECRET_BYTES, readSecret } from '../config/secret.js';
import type { DigestDeps } from '../deps.js';

export type TokenPurpose = 'confirm' | 'unsubscribe' | 'preferences';

/** What a token is bound to: the subscriber row and its address (a reused id with another address fails). */
export interface TokenSubject {
  id: string;
  address: string;
  /**
   * Which subscription of the reader (its generation): a confirm or preferences link is bound to the one it was
   * issued for and dies when that one ends. Absent for unsubscribe links, which keep working whatever came after.
   */
  instance?: string;
}

export type TokenCheck<S extends TokenSubject> =
  | { ok: true; subscriber: S; expiresAt: Date }
  | {
      ok: false;
      reason:
        | 'malformed'
        | 'unknown-subscriber'
        | 'bad-signature'
        | 'wrong-purpose'
        | 'expired'
        | 'other-subscription';
    };

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  confirm: 48 * 3600_000,
  // Unsubscribe links live in mails people find months later; Gmail/Yahoo expect them to keep working.
  unsubscribe: 365 * 24 * 3600_000,
  // The "your edition" link of every mail: like unsubscribing, choosing must work from an old mail.
  preferences: 365 * 24 * 3600_000,
};

const PURPOSE_CODE: Record<TokenPurpose, string> = { confirm: 'c', unsubscribe: 'u', preferences: 'p' };
/** The largest row id a token may name (PostgreSQL's integer). */
const MAX_ID = 2 ** 31 - 1;
/** `<purpose>2.<id>.<subscription>.<expiry>.<address tag>.<signature>` (since 0.2). */
const TOKEN_SHAPE =
  /^([cup])2\.([A-Za-z0-9_-]{2,16})\.([0-9a-z]{1,7})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{11})\.([A-Za-z0-9_-]{43})$/;
/** Release 0.1's `<purpose>.<id>.<expiry>.<signature>`, whose signature covers the address read from the row. */
const LEGACY_SHAPE = /^([cup])\.([A-Za-z0-9_-]{2,16})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface SubscriberTokens {
  issue(purpose: TokenPurpose, subject: TokenSubject, lifetimeMs?: number): string;
  /**
   * Checks the token's shape, id and signature, then calls `lookup` for the subscriber it names (whose address and
   * subscription must be the token's). A token of release 0.1 is checked against the row `lookup` finds.
   */
  verify<S extends TokenSubject>(
    token: string,
    purpose: TokenPurpose,
    lookup: Lookup<S>,
  ): Promise<TokenCheck<S>>;
}

/** The row id a token's id field names: canonical base64url of a decimal in 1..2^31-1, else null. */
export function tokenRowId(encoded: string): string | null {
  const bytes = Buffer.from(encoded, 'base64url');
  // Non-canonical forms (other trailing bits, the same id spelt twice) are refused, not decoded alike.
  if (bytes.toString('base64url') !== encoded) return null;
  const id = bytes.toString('latin1');
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= MAX_ID ? id : null;
}

/** The keyed digests of a token: its signature, its address tag, and release 0.1's signature. */
function tokenSigner(secret: Buffer) {
  const hmac = (text: string) => createHmac('sha256', secret).update(text).digest();
  return {
    mac: (fields: string[]) => hmac(`digest-token-v2\n${fields.join('\n')}`),
    addressTag: (address: string) =>
      hmac(`digest-token-address-v2\n${address}`).subarray(0, 8).toString('base64url'),
    legacyMac: (purpose: string, subject: TokenSubject, expiry: string) =>
      hmac(
        `digest-token-v1\n${purpose}\n${subject.id}\n${subject.address}\n${expiry}` +
          (subject.instance === undefined ? '' : `\n${subject.instance}`),
      ),
  };
}

/** Constant-time compare of a base64url signature with the expected bytes. */
export function sameBytes(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'base64url');
  return bytes.byteLength === expected.byteLength && timingSafeEqual(bytes, expected);
}

/** The token's expiry when it is for `purpose` and not past, else why not. */
function expiryOf({
  code,
  purpose,
  expiry,
  now,
}: {
  code: string;
  purpose: TokenPurpose;
  expiry: string;
  now: number;
}): Date | { ok: false; reason: 'wrong-purpose' | 'expired' } {
  if (code !== PURPOSE_CODE[purpose]) return { ok: false, reason: 'wrong-purpose' };
  const expiresAt = new Date(Number.parseInt(expiry, 36) * 1000);
  return expiresAt.getTime() <= now ? { ok: false, reason: 'expired' } : expiresAt;
}

type Lookup<S> = (id: string) => Promise<S | null> | S | null;

/**
 * Token: `<purpose>2.<base64url id>.<subscription, base 36>.<expiry, base-36 seconds>.<address tag>.<HMAC>`,
 * URL-safe, about 85 characters. The HMAC covers all of it, so a token cannot be moved to another purpose, reader,
 * subscription or date; the address tag (a keyed digest of the address, revealing nothing) must match the row's, so
 * an id reused by a reset database for someone else fails.
 */
export function createSubscriberTokens(secret: Buffer, now: () => number): SubscriberTokens {
  if (secret.byteLength < MIN_SECRET_BYTES)
    throw new Error(`the token secret needs ${MIN_SECRET_BYTES} bytes`);
  const signer = tokenSigner(secret);
  return {
    issue(purpose, subject, lifetimeMs = TOKEN_LIFETIME_MS[purpose]) {
      const code = PURPOSE_CODE[purpose];
      const id = Buffer.from(subject.id, 'latin1').toString('base64url');
      const instance = Number(subject.instance ?? 0).toString(36);
      const expiry = Math.floor((now() + lifetimeMs) / 1000).toString(36);
      const fields = [code, id, instance, expiry, signer.addressTag(subject.address)];
      return `${code}2.${fields.slice(1).join('.')}.${signer.mac(fields).toString('base64url')}`;
    },
    async verify(token, purpose, lookup) {
      const match = TOKEN_SHAPE.exec(token);
      if (!match) return verifyLegacy(signer, { token, purpose, lookup, now: now() });
      const [code, encodedId, instance, expiry, tag, signature] = match.slice(1) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const id = tokenRowId(encodedId);
      if (!id) return { ok: false, reason: 'malformed' };
      if (!sameBytes(signature, signer.mac([code, encodedId, instance, expiry, tag]))) {
        return { ok: false, reason: 'bad-signature' };
      }
      const expiresAt = expiryOf({ code, purpose, expiry, now: now() });
      if (!(expiresAt instanceof Date)) return expiresAt;
      const subscriber = await lookup(id);
      if (!subscriber) return { ok: false, reason: 'unknown-subscriber' };
      if (signer.addressTag(subscriber.address) !== tag) return { ok: false, reason: 'bad-signature' };
      if (
        subscriber.instance !== undefined &&
        Number.parseInt(instance, 36) !== Number(subscriber.instance)
      ) {
        return { ok: false, reason: 'other-subscription' };
      }
      return { ok: true, subscriber, expiresAt };
    },
  };
}

/**
 * A token of release 0.1, whose signature covers the address: checked against the row `lookup` finds, after its
 * shape, id, purpose and expiry (so a malformed, out-of-range or expired one costs no query either).
 */
async function verifyLegacy<S extends TokenSubject>(
  signer: ReturnType<typeof tokenSigner>,
  input: { token: string; purpose: TokenPurpose; lookup: Lookup<S>; now: number },
): Promise<TokenCheck<S>> {
  const match = LEGACY_SHAPE.exec(input.token);
  const id = match ? tokenRowId(match[2]!) : null;
  if (!match || !id) return { ok: false, reason: 'malformed' };
  const [code, , expiry, signature] = match.slice(1) as [string, string, string, string];
  const expiresAt = expiryOf({ code, purpose: input.purpose, expiry, now: input.now });
  if (!(expiresAt instanceof Date)) return expiresAt;
  const subscriber = await input.lookup(id);
  if (!subscriber) return { ok: false, reason: 'unknown-subscriber' };
  // Release 0.1 bound only confirm links to their subscription; its preferences links stay good for the first one.
  const signed = code === 'c' ? subscriber : { id: subscriber.id, address: subscriber.address };
  if (!sameBytes(signature, signer.legacyMac(code, signed, expiry)))
    return { ok: false, reason: 'bad-signature' };
  if (code === 'p' && subscriber.instance !== undefined && subscriber.instance !== '1') {
    return { ok: false, reason: 'other-subscription' };
  }
  return { ok: true, subscriber, expiresAt };
}

/** The digest's tokens: signed with DIGEST_SECRET, timed by the clock port. */
export function digestTokens(deps: Pick<DigestDeps, 'env' | 'clock'>): SubscriberTokens {
  return createSubscriberTokens(readSecret(deps.env), () => deps.clock.now().getTime());
}
