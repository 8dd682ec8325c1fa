// The server app with the subscription use cases on a test store, a loopback SMTP server and a clock tests move.

import { createHmac } from 'node:crypto';
import { createDigest, type Digest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/load-config.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { ServerApp } from '../../src/server/index.js';
import type { Store } from '../../src/store/types.js';
import {
  createSubscriberTokens,
  type TokenPurpose,
  type TokenSubject,
} from '../../src/subscribers/tokens.js';

export const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
export const WEBHOOK_SECRET = 'webhook-secret-0123456789';
export const BASE_URL = 'https://digest.example.org/';
export const ORIGIN = 'https://digest.example.org';

export interface SubscribeApp {
  app: ServerApp;
  digest: Digest;
  store: Store;
  clock: { time: number; now(): Date };
  logs: string[];
  /**
   * A token signed with the server's secret, at the test clock's time (or `at`); a confirm or preferences one for
   * `generation`.
   */
  token(
    purpose: TokenPurpose,
    subscriber: { id: number; address: string; generation?: number },
    at?: number,
  ): string;
}

/** The app as `digest serve` composes it (the root's service), on a test store and a loopback SMTP server. */
export async function subscribeApp(options: {
  store: Store;
  siteDir: string;
  smtpPort?: number;
  server?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  baseUrl?: string | null;
  languages?: string[];
}): Promise<SubscribeApp> {
  const clock = { time: Date.parse('2026-05-04T08:00:00Z'), now: () => new Date(clock.time) };
  const logs: string[] = [];
  const log = {
    info: (message: string) => logs.push(`info ${message}`),
    warn: (message: string) => logs.push(`warn ${message}`),
    debug: () => {},
  };
  const baseUrl = options.baseUrl === undefined ? BASE_URL : options.baseUrl;
  const config = parseConfig({
    name: 'Test Digest',
    ...(options.languages ? { languages: options.languages } : {}),
    server: {
      ...(baseUrl ? { baseUrl } : {}),
      trustProxy: true,
      // Bursts of test mails go out at once unless a test sets the pace it checks.
      outbox: { messagesPerSecond: 10_000 },
      ...options.server,
    },
    publish: {
      email: {
        from: 'Test Digest <digest@example.org>',
        ...(options.smtpPort
          ? { smtp: { host: '127.0.0.1', port: options.smtpPort, requireTls: false } }
          : {}),
      },
    },
  });
  const digest = createDigest({
    config,
    store: options.store,
    http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0, allowLoopback: false, log }),
    clock,
    log,
    fs: nodeFileSystem,
    env: { DIGEST_SECRET: SECRET, DIGEST_WEBHOOK_SECRET: WEBHOOK_SECRET, ...options.env },
  });
  const { app } = await digest.service({ siteDir: options.siteDir, requestLog: () => {} });
  return {
    app,
    digest,
    store: options.store,
    clock,
    logs,
    token(purpose, subscriber, at = clock.time) {
      return createSubscriberTokens(Buffer.from(SECRET), () => at).issue(purpose, {
        id: String(subscriber.id),
        address: subscriber.address,
        ...(purpose === 'unsubscribe' ? {} : { instance: String(subscriber.generation ?? 1) }),
      });
    },
  };
}

/**
 * A token as release 0.1 issued it (`<code>.<id>.<expiry>.<HMAC over id, address, expiry[, subscription]>`), signed
 * with `secret` (default the server's), valid until `expiresAt`.
 */
export function releaseOneToken(
  code: 'c' | 'u' | 'p',
  subject: TokenSubject,
  expiresAt: number,
  secret = SECRET,
): string {
  const expiry = Math.floor(expiresAt / 1000).toString(36);
  const signature = createHmac('sha256', secret)
    .update(`digest-token-v1\n${code}\n${subject.id}\n${subject.address}\n${expiry}`)
    .update(subject.instance === undefined ? '' : `\n${subject.instance}`)
    .digest('base64url');
  return `${code}.${Buffer.from(subject.id).toString('base64url')}.${expiry}.${signature}`;
}

let nextIp = 1;
/** A fresh client address per call (the server trusts X-Forwarded-For here), so rate limits do not interfere. */
export function freshIp(): string {
  nextIp += 1;
  return `198.51.100.${nextIp % 250}`;
}

/** A urlencoded form POST from the site's origin; fields as pairs when one repeats (checkboxes). */
export function formPost(
  fields: Record<string, string> | [string, string][],
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      'x-forwarded-for': freshIp(),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  };
}

export function jsonPost(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: ORIGIN,
      'x-forwarded-for': freshIp(),
      ...headers,
    },
    body: JSON.stringify(body),
  };
}
