// One worker of a send: reserves batches of the edition's rows, sends each reader's mail within the concurrency
// and rate limits, and settles every row. Any number of workers (processes) may run one send at once.
import PQueue from 'p-queue';
import type { SendLogPort } from '../store/types.js';
import { InvalidRecipientError, type OutgoingMail } from './edition-mail.js';
import type { PersonalMails } from './personal-mail.js';
import { HandOverRefusedError, judgeFailure, type MailSender } from './smtp-sender.js';

export type SendEvent =
  | { kind: 'sent'; address: string }
  | { kind: 'skipped'; subscriberId: number }
  | { kind: 'retry'; address: string; response: string; inMs: number }
  | { kind: 'failed'; address: string; response: string; bounced: boolean };

export interface SendRunOptions {
  store: SendLogPort;
  /** Composes each reader's mail (their variant of the edition, their tokens). */
  mail: Pick<PersonalMails, 'edition' | 'compose'>;
  sender: MailSender;
  /** This worker's claimer id (see claimer.ts). */
  worker: string;
  /** The reader's signed 'unsubscribe' and 'preferences' tokens. */
  tokensFor(recipient: { subscriberId: number; address: string }): {
    unsubscribe: string;
    preferences: string;
  };
  /** Counts a permanent failure; true when the address is now bounced. */
  recordBounce(subscriberId: number): Promise<boolean>;
  /** Claimers judged gone before the run: their reservations are free. */
  deadClaimers: readonly string[];
  concurrency: number;
  messagesPerSecond: number;
  maxAttempts: number;
  retryDelayMs: number;
  leaseSeconds: number;
  onEvent?: (event: SendEvent) => void;
  signal?: AbortSignal;
}

/** Longest single wait for a retry before the worker looks again (another worker may have taken the row). */
const MAX_RETRY_WAIT_MS = 30_000;

export class FatalSendError extends Error {
  override name = 'FatalSendError';
}

export async function runSendWorker(options: SendRunOptions): Promise<void> {
  const { store, mail, worker, signal } = options;
  const edition = mail.edition;
  const queue = new PQueue({ concurrency: options.concurrency, ...rateLimit(options.messagesPerSecond) });
  const stop = new AbortController();
  let fatal: FatalSendError | null = null;
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = aborted(stop.signal);

  const sendOne = async (subscriberId: number) => {
    if (stop.signal.aborted) return;
    const recipient = await store.startSending(edition, subscriberId, worker);
    if (!recipient) {
      options.onEvent?.({ kind: 'skipped', subscriberId });
      return;
    }
    let outgoing: OutgoingMail;
    try {
      const tokens = options.tokensFor(recipient);
      outgoing = await mail.compose({
        ...recipient,
        token: tokens.unsubscribe,
        preferencesToken: tokens.preferences,
      });
    } catch (error) {
      if (!(error instanceof InvalidRecipientError)) throw error;
      await store.recordFailed(edition, subscriberId, worker, error.message, null, 'permanent');
      options.onEvent?.({
        kind: 'failed',
        address: recipient.address,
        response: error.message,
        bounced: false,
      });
      return;
    }
    try {
      const sent = await options.sender.send(outgoing, () => store.handOver(edition, subscriberId, worker));
      await store.recordSent(edition, subscriberId, worker, sent.response, sent.messageId);
      options.onEvent?.({ kind: 'sent', address: recipient.address });
    } catch (error) {
      // Another process took the row over before the dot (this one was judged gone): it sends the mail.
      if (error instanceof HandOverRefusedError) {
        options.onEvent?.({ kind: 'skipped', subscriberId });
        return;
      }
      const verdict = judgeFailure(error);
      if (verdict.kind === 'fatal') {
        // Not this reader's fault: the row waits for the next run, and the send stops.
        await store.recordFailed(edition, subscriberId, worker, verdict.response, 0, 'temporary');
        fatal ??= new FatalSendError(`The SMTP server refused the sender: ${verdict.response}`, {
          cause: error,
        });
        stop.abort();
        return;
      }
      if (verdict.kind === 'temporary' && recipient.attempt < options.maxAttempts) {
        const inMs = options.retryDelayMs * 2 ** (recipient.attempt - 1);
        await store.recordFailed(edition, subscriberId, worker, verdict.response, inMs, 'temporary');
        options.onEvent?.({ kind: 'retry', address: recipient.address, response: verdict.response, inMs });
        return;
      }
      await store.recordFailed(
        edition,
        subscriberId,
        worker,
        verdict.response,
        null,
        verdict.kind === 'permanent' ? 'permanent' : 'temporary',
      );
      const bounced = verdict.kind === 'permanent' ? await options.recordBounce(subscriberId) : false;
      options.onEvent?.({ kind: 'failed', address: recipient.address, response: verdict.response, bounced });
    }
  };

  let failure: unknown = null;
  const batch = options.concurrency * 2;
  try {
    while (!stop.signal.aborted) {
      const ids = await store.reserveSendBatch(
        edition,
        worker,
        batch,
        options.deadClaimers,
        options.leaseSeconds,
      );
      if (ids.length) {
        for (const id of ids) {
          queue
            .add(() => sendOne(id))
            .catch((error: unknown) => {
              failure ??= error;
              stop.abort();
            });
        }
        // Keep about one batch waiting: enough to never idle, few rows reserved if the process dies.
        await Promise.race([queue.onSizeLessThan(options.concurrency), stopped]);
        continue;
      }
      await Promise.race([queue.onIdle(), stopped]);
      if (stop.signal.aborted) break;
      const counts = await store.sendCounts(edition);
      if (counts.retrying === 0 || counts.nextRetryInMs === null) break;
      await delay(Math.min(Math.max(counts.nextRetryInMs, 10), MAX_RETRY_WAIT_MS), stop.signal);
    }
  } finally {
    // Mails not yet started stay reserved by this worker; a rerun takes them over once this process is gone.
    queue.clear();
    await queue.onIdle();
    signal?.removeEventListener('abort', onAbort);
  }
  if (failure) throw failure;
  if (fatal) throw fatal;
  if (signal?.aborted) throw signal.reason;
}

function rateLimit(perSecond: number): { interval: number; intervalCap: number } {
  // Small intervals spread the mails over the second instead of sending them in one burst.
  if (perSecond >= 10) return { interval: 100, intervalCap: Math.max(1, Math.round(perSecond / 10)) };
  return { interval: Math.round(1000 / perSecond), intervalCap: 1 };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
