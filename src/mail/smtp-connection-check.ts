// Before a send reserves a single reader: can the SMTP server be reached at all? A server that is down (connection
// refused) or hangs (accepts, then never greets) would otherwise fail every reader one by one through the retry
// delays, for many minutes, and mark them all. Here a few connection tries within one bounded budget, each saying
// when the next comes; when none connects the send stops with nothing reserved or marked. A server that answers
// (even with refusals) is the send's business: its per-reader retries stay as they are.
import { SmtpUnreachableError } from '../core/errors.js';
import type { SmtpServer } from './smtp-pool.js';
import { probeSmtp } from './smtp-probe.js';

/** The whole check ends within this, whatever the timeouts: a scheduler learns within a minute. */
const BUDGET_MS = 50_000;
/** One try waits at most this long for the greeting (publish.email.send.timeoutMs when shorter). */
const TRY_TIMEOUT_MS = 10_000;
const MAX_TRIES = 4;
/** The first wait between tries (publish.email.send.retryDelayMs when shorter), doubled after each. */
const FIRST_WAIT_MS = 5_000;

export interface SmtpConnectionCheckOptions {
  server: SmtpServer;
  /** publish.email.send.retryDelayMs: the first wait is the shorter of it and 5 s. */
  retryDelayMs: number;
  /** Said before each wait: what failed and when the next try is. */
  onRetry?: (retry: { message: string; nextTryAt: Date; inMs: number }) => void;
  signal?: AbortSignal;
}

/** Resolves once a connection (and login, when set) worked, or the server answered at all; else throws SmtpUnreachableError. */
export async function checkSmtpConnection(options: SmtpConnectionCheckOptions): Promise<void> {
  const { server } = options;
  const started = Date.now();
  let wait = Math.min(options.retryDelayMs, FIRST_WAIT_MS);
  for (let tries = 1; ; tries++) {
    const remaining = BUDGET_MS - (Date.now() - started);
    const timeoutMs = Math.max(100, Math.min(server.timeoutMs, TRY_TIMEOUT_MS, remaining));
    const probe = await probeSmtp({ ...server, timeoutMs });
    // Login or STARTTLS refused: the server is there; the send reports that as it does today.
    if (probe.ok || probe.failedStep !== 'connect') return;
    const elapsed = Date.now() - started;
    if (tries >= MAX_TRIES || elapsed + wait + timeoutMs > BUDGET_MS) {
      throw new SmtpUnreachableError(
        `Could not connect to the SMTP server ${server.host}:${server.port}: ${probe.message} ` +
          `(${tries} tries in ${Math.round(elapsed / 1000)} s). Nothing was sent and no reader was marked: every ` +
          'reader is left to the next run. Check the server and the mail settings with ./digest doctor.',
      );
    }
    options.onRetry?.({ message: probe.message, nextTryAt: new Date(Date.now() + wait), inMs: wait });
    await pause(wait, options.signal);
    if (options.signal?.aborted) throw options.signal.reason;
    wait *= 2;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
