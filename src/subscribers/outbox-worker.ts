// The outbox's worker (inside `digest serve`): claims due mails, sends each through the one SMTP module, and records
// what became of it. A mail is marked sent only after the server's 250; a temporary failure (4xx, no connection,
// timeout, refused login) is tried again after a doubling wait, also after a restart (the time is in the row); a
// permanent one (5xx) is given up with the server's answer as the reason, and so is one that failed `maxAttempts`
// times. The terminating dot waits for the row's hand-over stamp, so a worker killed mid-mail leaves a row that is
// either certainly not delivered (sent again) or possibly delivered (`uncertain`, never sent twice).
import { randomUUID } from 'node:crypto';
import type { OutboxConfig } from '../config/server-schema.js';
import type { Logger } from '../core/ports.js';
import type { OutgoingMail } from '../mail/edition-mail.js';
import { HandOverRefusedError, judgeFailure, type MailSender } from '../mail/smtp-sender.js';
import type { OutboxMail, OutboxOutcome } from '../store/outbox.js';
import type { OutboxPort } from '../store/types.js';

/** Mails claimed per statement, and sent at once at most. */
const CLAIM_BATCH = 20;
const CONCURRENCY = 2;
/** A mail given up within this window keeps /healthz "degraded". */
const GIVEN_UP_WINDOW_MS = 3_600_000;

export type OutboxEvent = {
  kind: 'sent' | 'failed' | 'retry' | 'skipped';
  mail: OutboxMail;
  detail?: string;
};

/** A mail to send, or why it no longer applies (the reader confirmed, left, or subscribed anew). */
export type Composed = { mail: OutgoingMail } | { skip: string };

export interface OutboxWorkerDeps {
  store: Pick<OutboxPort, 'claimOutbox' | 'outboxHandOver' | 'settleOutbox'>;
  /** Made on the first mail: a server nobody subscribes to opens no SMTP connection. */
  sender: () => MailSender;
  compose(mail: OutboxMail): Promise<Composed>;
  settings: OutboxConfig;
  log: Logger;
  /** Milliseconds since the epoch (the process clock: only for the "degraded" window). */
  now: () => number;
}

export interface MailHealth {
  /** "degraded" while mails wait for a retry, or one was given up within the last hour. */
  status: 'ok' | 'degraded';
  /** The last failure's one-line reason, when degraded. */
  lastError?: string;
}

export interface OutboxWorker {
  /** Runs until `stop()`; `onEvent` sees every outcome (the /metrics counters). */
  start(onEvent?: (event: OutboxEvent) => void): void;
  /** A request queued a mail: look now rather than at the next poll. */
  wake(): void;
  /** Resolves once no mail is due (each due one was sent, given up or rescheduled): tests and shutdown. */
  idle(): Promise<void>;
  stop(): Promise<void>;
  health(retrying: number): MailHealth;
}

/** The wait before attempt `attempts + 1`: retryDelayMs, doubled for each attempt after the first, capped. */
export function retryDelay(settings: OutboxConfig, attempts: number): number {
  return Math.min(settings.maxRetryDelayMs, settings.retryDelayMs * 2 ** Math.max(0, attempts - 1));
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { store, settings, log } = deps;
  const worker = `outbox-${process.pid}-${randomUUID().slice(0, 8)}`;
  let sender: MailSender | undefined;
  let onEvent: (event: OutboxEvent) => void = () => {};
  let running = false;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let chain: Promise<number> = Promise.resolve(0);
  let lastError: string | undefined;
  let lastGivenUpAt = -Infinity;
  let failingNow = false;

  async function deliver(mail: OutboxMail): Promise<OutboxOutcome | null> {
    const composed = await deps.compose(mail);
    if ('skip' in composed) return { state: 'skipped', reason: composed.skip };
    sender ??= deps.sender();
    try {
      const { response } = await sender.send(composed.mail, () => store.outboxHandOver(mail.id, worker));
      return { state: 'sent', response };
    } catch (error) {
      // Another worker took the row over before the dot: nothing was delivered, and the row is theirs.
      if (error instanceof HandOverRefusedError) return null;
      const verdict = judgeFailure(error);
      if (verdict.kind === 'permanent')
        return { state: 'failed', failure: 'permanent', error: verdict.response };
      if (mail.attempts >= settings.maxAttempts) {
        return {
          state: 'failed',
          failure: 'temporary',
          error: `gave up after ${mail.attempts} attempts: ${verdict.response}`,
        };
      }
      return { state: 'queued', error: verdict.response, retryInMs: retryDelay(settings, mail.attempts) };
    }
  }

  function report(mail: OutboxMail, outcome: OutboxOutcome): void {
    const what = `the ${mail.kind} mail to subscriber ${mail.subscriberId} (attempt ${mail.attempts})`;
    if (outcome.state === 'sent') {
      failingNow = false;
      log.info(`sent ${what}`);
      onEvent({ kind: 'sent', mail });
    } else if (outcome.state === 'skipped') {
      log.info(`skipped ${what}: ${outcome.reason}`);
      onEvent({ kind: 'skipped', mail, detail: outcome.reason });
    } else if (outcome.state === 'failed') {
      failingNow = true;
      lastError = outcome.error;
      lastGivenUpAt = deps.now();
      log.warn(`gave up ${what}: ${outcome.error}`);
      onEvent({ kind: 'failed', mail, detail: outcome.error });
    } else {
      failingNow = true;
      lastError = outcome.error;
      log.warn(
        `${what} failed for now (${outcome.error}); next try in ${Math.round(outcome.retryInMs / 1000)} s`,
      );
      onEvent({ kind: 'retry', mail, detail: outcome.error });
    }
  }

  async function handle(mail: OutboxMail): Promise<void> {
    let outcome: OutboxOutcome | null;
    try {
      outcome = await deliver(mail);
    } catch (error) {
      // Composing failed (the database went away): tried again later like a temporary SMTP failure.
      const message = error instanceof Error ? error.message : String(error);
      outcome = { state: 'queued', error: message, retryInMs: retryDelay(settings, mail.attempts) };
    }
    if (!outcome) return;
    await store.settleOutbox(mail.id, worker, outcome);
    report(mail, outcome);
  }

  /** One claim and its mails; the number of mails claimed. */
  async function pass(): Promise<number> {
    const mails = await store.claimOutbox(worker, CLAIM_BATCH, settings.leaseSeconds);
    const queue = [...mails];
    const lanes = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let mail = queue.shift(); mail; mail = queue.shift()) await handle(mail);
    });
    await Promise.all(lanes);
    return mails.length;
  }

  /** Passes never overlap: the loop and idle() share one chain. */
  const runPass = () => {
    chain = chain.catch(() => 0).then(pass);
    return chain;
  };

  function pause(): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, settings.pollMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run(): Promise<void> {
    while (running) {
      let claimed = 0;
      try {
        claimed = await runPass();
      } catch (error) {
        log.warn(`outbox: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (claimed === 0 && running) await pause();
    }
  }

  function start(handler?: (event: OutboxEvent) => void): void {
    if (handler) onEvent = handler;
    if (running) return;
    running = true;
    loop = run();
  }

  return {
    start,
    wake() {
      if (!running) start();
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async idle() {
      while ((await runPass()) > 0) {}
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      await chain.catch(() => 0);
      sender?.close();
      sender = undefined;
    },
    health(retrying) {
      const degraded = retrying > 0 || failingNow || deps.now() - lastGivenUpAt < GIVEN_UP_WINDOW_MS;
      return degraded ? { status: 'degraded', ...(lastError ? { lastError } : {}) } : { status: 'ok' };
    },
  };
}
