// The send use case wired to a test store and a loopback SMTP server, as openDigest wires the real one.
import { createDigest, type Digest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/core/ports.js';
import type { Edition } from '../../src/core/types.js';
import { systemClock } from '../../src/deps.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { referenceEdition } from './reference-edition.js';

export const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
export const WEEK = '2026-05-04';
export const BASE_URL = 'https://digest.example.org/';

export interface SendConfigInput {
  concurrency?: number;
  messagesPerSecond?: number;
  bounceLimit?: number;
  maxAttempts?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  leaseSeconds?: number;
  unsubscribeMailto?: string;
}

export function sendConfigFile(port: number, send: SendConfigInput = {}, dkim?: object) {
  return {
    enrich: { enabled: false },
    publish: {
      baseUrl: BASE_URL,
      email: {
        from: 'LLM News Digest <digest@example.org>',
        smtp: { host: '127.0.0.1', port, requireTls: false },
        ...(dkim ? { dkim } : {}),
        send: {
          concurrency: 2,
          messagesPerSecond: 1000,
          retryDelayMs: 20,
          timeoutMs: 2000,
          leaseSeconds: 60,
          unsubscribeMailto: 'unsubscribe@example.org',
          ...send,
        },
      },
    },
  };
}

export function testDigest(
  store: Store,
  port: number,
  send: SendConfigInput = {},
  options: { dkim?: object; env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {},
): Digest {
  const config = parseConfig(sendConfigFile(port, send, options.dkim));
  return createDigest({
    config,
    store,
    http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0 }),
    clock: systemClock,
    log: silentLogger,
    fs: nodeFileSystem,
    env: { DIGEST_SECRET: SECRET, ...options.env },
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** The reference edition, saved and published. */
export async function seedEdition(
  store: Store,
  edit: (edition: Edition) => void = () => {},
): Promise<Edition> {
  const edition = referenceEdition();
  edit(edition);
  await store.editions.save(edition);
  await store.editions.markPublished(edition.date, '2026-05-04T08:00:00.000Z');
  return edition;
}

export async function addReaders(
  store: Store,
  addresses: string[],
  status: 'confirmed' | 'pending' | 'unsubscribed' = 'confirmed',
): Promise<void> {
  for (const address of addresses) await store.subscribers.put(address, address, status);
}
