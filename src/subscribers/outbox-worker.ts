// The outbox's worker (inside `digest serve`): claims due mails, sends each through the one SMTP module, and records
// what became of it. A mail is marked sent only after the server's 250; a temporary failure (4xx, no connection,
// timeout, refused login) is tried again after a doubling wait, also after a restart (the time is in the row); a
// permanent one (5xx) is given up with the server's answer as the reason, and so is one that failed `maxAttempts`
// times. The terminating dot waits for the row's hand-over stamp, so a worker killed mid-mail leaves a row that is
// either certainly not delivered (sent again) or possibly delivered (`uncertain`, never sent twice). Mails go out
// at most `messagesPerSecond`, evenly spaced (mail-pace.ts), and the worker claims only about a second's worth.
import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { OutboxConfig } from '../config/server-schema.js';
import type { Logger } from '../core/ports.js';
import type { OutgoingMail } from '../mail/edition-mail.js';
import { HandOverRefusedError, judgeFailure, type MailSender } from '../mail/smtp-sender.js';
import type { OutboxMail, OutboxOutcome } from '../store/outbox.js';
import type { Store } from '../store/types.js';
import { claimSize, createMailPace } from './mail-pace.js';
import { createPollLoop } from './poll-loop.js';

/** Mails claimed per statement at most, and sent at once at most. */
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

/** server.outbox, its rate resolved (unset there: publish.email.send's). */
export type OutboxSettings = OutboxConfig & { messagesPerSecond: number };

export interface OutboxWorkerDeps {
  store: Pick<Store, 'outbox'>;
  /** Made on the first mail: a server nobody subscribes to opens no SMTP connection. */
  sender: () => MailSender;
  compose(mail: OutboxMail): Promise<Composed>;
  settings: OutboxSettings;
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
export function retryDelay(settings: OutboxSettings, attempts: number): number {
  return Math.min(settings.maxRetryDelayMs, settings.retryDelayMs * 2 ** Math.max(0, attempts - 1));
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { store, settings } = deps;
  const worker = `outbox-${process.pid}-${randomUUID().slice(0, 8)}`;
  const sender = lazySender(deps.sender);
  const health = createHealthTracker(deps.now);
  const pace = createMailPace(settings.messagesPerSecond);
  const by = { worker, sender: sender.get, paced: () => wait(pace.take()) };
  // Cuts short the wait for the next turn when the worker stops (renewed after, as wake() may start it again).
  let stopping = new AbortController();
  let onEvent: (event: OutboxEvent) => void = () => {};
  let chain: Promise<number> = Promise.resolve(0);

  async function handle(mail: OutboxMail): Promise<void> {
    let outcome: OutboxOutcome | null;
    try {
      outcome = await deliver(deps, by, mail);
    } catch (error) {
      // Composing failed (the database went away): tried again later like a temporary SMTP failure.
      const message = error instanceof Error ? error.message : String(error);
      outcome = { state: 'queued', error: message, retryInMs: retryDelay(settings, mail.attempts) };
    }
    if (!outcome) return;
    await store.outbox.settle(mail.id, worker, outcome);
    health.note(outcome);
    onEvent(report(deps.log, mail, outcome));
  }

  /** One claim and its mails; the number of mails claimed. */
  async function pass(): Promise<number> {
    // Wait for the next turn before claiming, so no claimed mail sits waiting for its turn.
    const due = pace.due();
    if (due > 0 && !(await wait(due, true, { signal: stopping.signal }).catch(() => false))) return 0;
    const claim = claimSize(settings.messagesPerSecond, CLAIM_BATCH);
    const mails = await store.outbox.claim(worker, claim, settings.leaseSeconds);
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
  const loop = createPollLoop(runPass, settings.pollMs, deps.log);

  return {
    start(handler) {
      if (handler) onEvent = handler;
      loop.start();
    },
    wake: () => loop.wake(),
    async idle() {
      while ((await runPass()) > 0) {}
    },
    async stop() {
      stopping.abort();
      await loop.stop();
      await chain.catch(() => 0);
      stopping = new AbortController();
      sender.close();
    },
    health: (retrying) => health.health(retrying),
  };
}

/** Sends one claimed mail; what became of it, or null when another worker took the row over before the dot. */
async function deliver(
  deps: Pick<OutboxWorkerDeps, 'compose' | 'store' | 'settings'>,
  by: { worker: string; sender: () => MailSender; paced: () => Promise<unknown> },
  mail: OutboxMail,
): Promise<OutboxOutcome | null> {
  const { settings } = deps;
  const composed = await deps.compose(mail);
  if ('skip' in composed) return { state: 'skipped', reason: composed.skip };
  // Only a mail that goes out takes a turn: one that no longer applies costs the provider nothing.
  await by.paced();
  const sender = by.sender();
  try {
    const handOver = () => deps.store.outbox.handOver(mail.id, by.worker);
    const { response } = await sender.send(composed.mail, handOver);
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

/** The SMTP connections, opened with the first mail and closed when the worker stops. */
function lazySender(open: () => MailSender): { get: () => MailSender; close: () => void } {
  let sender: MailSender | undefined;
  return {
    get: () => {
      sender ??= open();
      return sender;
    },
    close() {
      sender?.close();
      sender = undefined;
    },
  };
}

/** "degraded" while the latest mail failed, or one was given up within the last hour (see MailHealth). */
function createHealthTracker(now: () => number) {
  let lastError: string | undefined;
  let lastGivenUpAt = -Infinity;
  let failingNow = false;
  return {
    note(outcome: OutboxOutcome): void {
      if (outcome.state === 'sent') failingNow = false;
      if (outcome.state !== 'failed' && outcome.state !== 'queued') return;
      failingNow = true;
      lastError = outcome.error;
      if (outcome.state === 'failed') lastGivenUpAt = now();
    },
    health(retrying: number): MailHealth {
      const degraded = retrying > 0 || failingNow || now() - lastGivenUpAt < GIVEN_UP_WINDOW_MS;
      return degraded ? { status: 'degraded', ...(lastError ? { lastError } : {}) } : { status: 'ok' };
    },
  };
}

/** Logs what became of a mail; the event for /metrics. */
function report(log: Logger, mail: OutboxMail, outcome: OutboxOutcome): OutboxEvent {
  const what = `the ${mail.kind} mail to subscriber ${mail.subscriberId} (attempt ${mail.attempts})`;
  if (outcome.state === 'sent') {
    log.info(`sent ${what}`);
    return { kind: 'sent', mail };
  }
  if (outcome.state === 'skipped') {
    log.info(`skipped ${what}: ${outcome.reason}`);
    return { kind: 'skipped', mail, detail: outcome.reason };
  }
  if (outcome.state === 'failed') {
    log.warn(`gave up ${what}: ${outcome.error}`);
    return { kind: 'failed', mail, detail: outcome.error };
  }
  log.warn(
    `${what} failed for now (${outcome.error}); next try in ${Math.round(outcome.retryInMs / 1000)} s`,
  );
  return { kind: 'retry', mail, detail: outcome.error };
}
