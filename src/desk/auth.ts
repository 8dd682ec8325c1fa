// Sign-in and sessions of the editor's desk. The cookie carries a random token; the store keeps only its hash, with
// the session's CSRF secret (a synchronizer token every form carries). Failed attempts are limited per client
// address and per (address, account) pair, following OWASP's authentication guidance: the limits are checked
// before the password is looked at, a refused attempt costs nothing, and a successful one is never counted. There is
// no account-wide lock, so nobody can lock the editor out from elsewhere; guessing from many addresses is slowed by
// scrypt and written to the audit log (see SECURITY.md).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { normaliseAddress } from '../core/email-address.js';
import type { SharedRateLimiter } from '../core/rate-limiter.js';
import { verifyPassword } from './passwords.js';
import type { AuditDeps, AuthDeps } from './ports.js';

const SESSION_HOURS = 12;

export interface DeskEditor {
  id: number;
  email: string;
}

export interface DeskSession {
  editor: DeskEditor;
  /** The token every form of this session carries. */
  csrf: string;
  tokenHash: string;
}

export type SignInResult =
  | { ok: true; token: string; maxAgeSeconds: number }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate-limited'; retryAfterSeconds: number };

export interface SignInLimits {
  /** Failed attempts per client address in a burst, then one more every `perIpRefillMs`. */
  perIp: number;
  perIpRefillMs: number;
  /** Failed attempts per (client address, account) pair in a burst, then one more every `perPairRefillMs`. */
  perPair: number;
  perPairRefillMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perIp: 10,
  perIpRefillMs: 60_000,
  perPair: 5,
  perPairRefillMs: 5 * 60_000,
};

/**
 * An editor's address in the readers' normal form (core/email-address.ts `normaliseAddress`: one rule for every
 * address we keep), or null when it is not one.
 */
export function editorAddress(input: string): string | null {
  const check = normaliseAddress(input);
  return check.ok ? check.address : null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Failed sign-in attempts per client address, and per (address, account) pair. */
interface SignInLimiters {
  byIp: SharedRateLimiter;
  byPair: SharedRateLimiter;
}

export function createDeskAuth(deps: AuthDeps, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {
  const now = () => deps.clock.now().getTime();
  // On PostgreSQL the attempts are counted in the database, so N instances do not give a guesser N times the limit.
  const store = deps.store.rateLimits(now);
  const limiters: SignInLimiters = {
    byIp: store.limiter('sign-in-ip', { capacity: limits.perIp, refillMs: limits.perIpRefillMs }),
    byPair: store.limiter('sign-in-pair', { capacity: limits.perPair, refillMs: limits.perPairRefillMs }),
  };

  return {
    /** A fresh random value for the sign-in form's double-submit cookie. */
    newFormToken: () => randomBytes(24).toString('base64url'),

    signIn: (input: SignInInput) => signIn(deps, limiters, input),

    /** The live session of a cookie or Bearer token, or null (unknown, expired, signed out). */
    async authenticate(token: string | undefined): Promise<DeskSession | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hashToken(token);
      const session = await deps.store.editors.getSession(tokenHash, deps.clock.now());
      if (!session) return null;
      return { editor: { id: session.editorId, email: session.email }, csrf: session.csrfSecret, tokenHash };
    },

    async signOut(session: DeskSession): Promise<void> {
      await deps.store.editors.revokeSession(session.tokenHash, deps.clock.now());
      await auditSession({ deps, editor: session.editor.email, action: 'sign-out', detail: {} });
    },

    checkCsrf: (session: DeskSession, token: string | undefined) => sameToken(token, session.csrf),
    /** The sign-in form's double-submit check: the field must equal the cookie set with the form. */
    checkCsrfPair: (field: string | undefined, cookie: string) => sameToken(field, cookie),
  };
}

type SignInInput = { email: string; password: string; clientAddress: string };

async function signIn(deps: AuthDeps, limiters: SignInLimiters, input: SignInInput): Promise<SignInResult> {
  const { byIp, byPair } = limiters;
  // What is not an address matches no editor, but is counted (as typed) like any other failed attempt.
  const email = editorAddress(input.email);
  const account = email ?? input.email.trim().toLowerCase().slice(0, 254);
  const ipKey = `ip:${input.clientAddress}`;
  const pairKey = `pair:${input.clientAddress}\n${account}`;
  // Each attempt takes its token up front (so a hundred parallel attempts cannot all pass the check), and gives
  // it back unless it fails: refused and successful attempts cost nothing.
  const ip = await byIp.take(ipKey);
  const pair = ip.allowed ? await byPair.take(pairKey) : ip;
  if (!pair.allowed) {
    if (ip.allowed) await byIp.refund(ipKey);
    return {
      ok: false,
      reason: 'rate-limited',
      retryAfterSeconds: Math.max(1, Math.ceil(pair.retryAfterMs / 1000)),
    };
  }
  const from = { clientAddress: input.clientAddress };
  const credentials = email ? await deps.store.editors.credentials(email) : null;
  const valid = await verifyPassword(input.password, credentials?.passwordHash ?? null);
  if (!valid || !credentials) {
    await auditSession({
      deps,
      editor: account.slice(0, 200) || '(empty)',
      action: 'sign-in-failed',
      detail: from,
    });
    return { ok: false, reason: 'invalid' };
  }
  await byIp.refund(ipKey);
  await byPair.refund(pairKey);
  const token = randomBytes(32).toString('base64url');
  await deps.store.editors.createSession({
    tokenHash: hashToken(token),
    editorId: credentials.id,
    csrfSecret: randomBytes(24).toString('base64url'),
    expiresAt: new Date(deps.clock.now().getTime() + SESSION_HOURS * 3_600_000),
  });
  await auditSession({ deps, editor: credentials.email, action: 'sign-in', detail: from });
  return { ok: true, token, maxAgeSeconds: SESSION_HOURS * 3600 };
}

function auditSession({
  deps,
  editor,
  action,
  detail,
}: {
  deps: AuditDeps;
  editor: string;
  action: string;
  detail: Record<string, unknown>;
}) {
  return deps.store.desk.recordAudit({ editor, action, week: null, itemKey: null, detail });
}
