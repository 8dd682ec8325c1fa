// One worker of a send: reserves batches of the edition's rows, sends each reader's mail within the concurrency
// and rate limits, and settles every row. Any number of workers (processes) may run one send at once.
import PQueue from 'p-queue';
import type { SendConfig } from '../config/publish-schema.js';
import type { HeldSendRow, SendKey, SendRecipient } from '../store/send-log.js';
import type { Store } from '../store/types.js';
import { InvalidRecipientError, type OutgoingMail } from './edition-mail.js';
import type { PersonalMails } from './personal-mail.js';
import { type SendMoves, sendMoves } from './send-moves.js';
import { HandOverRefusedError, judgeFailure, type MailSender } from './smtp-sender.js';

export type SendEvent =
  | { kind: 'sent'; address: string }
  | { kind: 'skipped'; subscriberId: number }
  | { kind: 'retry'; address: string; response: string; inMs: number }
  | { kind: 'failed'; address: string; response: string; bounced: boolean }
  /** Nothing to send until a retry is due: the worker waits `inMs` for the next. */
  | { kind: 'waiting'; retrying: number; inMs: number };

/** The send's limits (publish.email.send). */
export type SendLimits = Pick<
  SendConfig,
  'concurrency' | 'messagesPerSecond' | 'maxAttempts' | 'retryDelayMs' | 'leaseSeconds'
>;

/** What the send knows about its readers beyond the send log. */
export interface SendReaders {
  /** The reader's signed 'unsubscribe' and 'preferences' tokens. */
  tokensFor(recipient: { subscriberId: number; address: string; generation: number }): {
    unsubscribe: string;
    preferences: string;
    /** Per-reader counted links: the reader's signed part of each /r/ link. */
    clicks?: string;
  };
  /** Counts a permanent failure; true when the address is now bounced. */
  recordBounce(subscriberId: number): Promise<boolean>;
}

export interface SendRunOptions {
  store: Pick<Store, 'sendLog'>;
  /**
   * Composes each reader's mail (their variant of the edition, or a correction notice; their tokens). `notice`: the
   * revision whose correction notice this is (absent: the edition); `revision`: the revision the mail carries,
   * recorded on each reader's row.
   */
  mail: Pick<PersonalMails, 'edition' | 'compose'> & {
    notice?: number | undefined;
    revision?: number | undefined;
  };
  sender: MailSender;
  /** This worker's claimer id (see claimer.ts), and the claimers judged gone before the run: their rows are free. */
  claim: { worker: string; deadClaimers: readonly string[] };
  readers: SendReaders;
  limits: SendLimits;
  onEvent?: (event: SendEvent) => void;
  signal?: AbortSignal;
}

/** Longest single wait for a retry before the worker looks again (another worker may have taken the row). */
const MAX_RETRY_WAIT_MS = 30_000;

export class FatalSendError extends Error {
  override name = 'FatalSendError';
}

/** One run's shared state: its options, the stop switch, and the first fatal failure (which stops the run). */
interface Run {
  options: SendRunOptions;
  moves: SendMoves;
  stop: AbortController;
  fatal: FatalSendError | null;
}

export async function runSendWorker(options: SendRunOptions): Promise<void> {
  const { signal } = options;
  const { mail, claim } = options;
  const moves = sendMoves(options.store.sendLog, {
    edition: mail.edition,
    notice: mail.notice,
    worker: claim.worker,
    revision: mail.revision,
  });
  const run: Run = { options, moves, stop: new AbortController(), fatal: null };
  const onAbort = () => run.stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await reserveAndSend(run);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (run.fatal) throw run.fatal;
  if (signal?.aborted) throw signal.reason;
}

/** Reserves batches of rows and queues their mails until none is left or due, or the run stops. */
async function reserveAndSend(run: Run): Promise<void> {
  const { store, mail, claim, limits } = run.options;
  const { stop } = run;
  const queue = new PQueue({ concurrency: limits.concurrency, ...rateLimit(limits.messagesPerSecond) });
  const stopped = aborted(stop.signal);
  let failure: unknown = null;
  const batch = limits.concurrency * 2;
  // Where the last batch ended: the next one is looked for after it, then once more from the first reader.
  let after = 0;
  try {
    while (!stop.signal.aborted) {
      const ids = await store.sendLog.reserveBatch({
        edition: mail.edition,
        notice: mail.notice,
        worker: claim.worker,
        limit: batch,
        deadClaimers: claim.deadClaimers,
        leaseSeconds: limits.leaseSeconds,
        after,
      });
      if (ids.length === 0 && after > 0) {
        after = 0;
        continue;
      }
      after = ids.at(-1) ?? 0;
      if (ids.length) {
        for (const id of ids) {
          queue
            .add(() => sendToReader(run, id))
            .catch((error: unknown) => {
              failure ??= error;
              stop.abort();
            });
        }
        // Keep about one batch waiting: enough to never idle, few rows reserved if the process dies.
        await Promise.race([queue.onSizeLessThan(limits.concurrency), stopped]);
        continue;
      }
      await Promise.race([queue.onIdle(), stopped]);
      if (stop.signal.aborted) break;
      const counts = await store.sendLog.counts(sendKey(mail));
      if (counts.retrying === 0 || counts.nextRetryInMs === null) break;
      const inMs = Math.min(Math.max(counts.nextRetryInMs, 10), MAX_RETRY_WAIT_MS);
      run.options.onEvent?.({ kind: 'waiting', retrying: counts.retrying, inMs });
      await delay(inMs, stop.signal);
    }
  } finally {
    // Mails not yet started stay reserved by this worker; a rerun takes them over once this process is gone.
    queue.clear();
    await queue.onIdle();
  }
  if (failure) throw failure;
}

/** One reader's mail: the row becomes "sending" (or skipped: the reader left), then is settled by the answer. */
async function sendToReader(run: Run, subscriberId: number): Promise<void> {
  const { onEvent } = run.options;
  if (run.stop.signal.aborted) return;
  const recipient = await run.moves.start(subscriberId);
  if (!recipient) {
    onEvent?.({ kind: 'skipped', subscriberId });
    return;
  }
  const outgoing = await composeFor(run, recipient);
  if (!outgoing) return;
  try {
    const sent = await run.options.sender.send(outgoing, () => run.moves.handOver(subscriberId));
    // The server answered after the whole message: its buffer may carry the next reader's mail.
    outgoing.release?.();
    await run.moves.recordSent(subscriberId, { smtpResponse: sent.response, messageId: sent.messageId });
    onEvent?.({ kind: 'sent', address: recipient.address });
  } catch (error) {
    await settleFailure(run, recipient, error);
  }
}

/** The reader's mail, or null when their address cannot take one (the row is then failed for good). */
async function composeFor(run: Run, recipient: SendRecipient): Promise<OutgoingMail | null> {
  const { store, mail, readers, onEvent } = run.options;
  try {
    const tokens = readers.tokensFor(recipient);
    return await mail.compose({
      ...recipient,
      token: tokens.unsubscribe,
      preferencesToken: tokens.preferences,
      clickTag: tokens.clicks,
    });
  } catch (error) {
    if (!(error instanceof InvalidRecipientError)) throw error;
    await store.sendLog.recordFailed(heldRow(run, recipient.subscriberId), {
      smtpResponse: error.message,
      retryInMs: null,
      failure: 'permanent',
    });
    onEvent?.({ kind: 'failed', address: recipient.address, response: error.message, bounced: false });
    return null;
  }
}

/** Records what a failed mail means: the run stops (fatal), the reader is tried again, or the row fails. */
async function settleFailure(run: Run, recipient: SendRecipient, error: unknown): Promise<void> {
  const { store, limits, readers, onEvent } = run.options;
  const { subscriberId, address } = recipient;
  // Another process took the row over before the dot (this one was judged gone): it sends the mail.
  if (error instanceof HandOverRefusedError) {
    onEvent?.({ kind: 'skipped', subscriberId });
    return;
  }
  const verdict = judgeFailure(error);
  const record = (retryInMs: number | null, failure: 'temporary' | 'permanent') =>
    store.sendLog.recordFailed(heldRow(run, subscriberId), {
      smtpResponse: verdict.response,
      retryInMs,
      failure,
    });
  if (verdict.kind === 'fatal') {
    // Not this reader's fault: the row waits for the next run, and the send stops.
    await record(0, 'temporary');
    run.fatal ??= new FatalSendError(`The SMTP server refused the sender: ${verdict.response}`, {
      cause: error,
    });
    run.stop.abort();
    return;
  }
  if (verdict.kind === 'temporary' && recipient.attempt < limits.maxAttempts) {
    const inMs = limits.retryDelayMs * 2 ** (recipient.attempt - 1);
    await record(inMs, 'temporary');
    onEvent?.({ kind: 'retry', address, response: verdict.response, inMs });
    return;
  }
  await record(null, verdict.kind === 'permanent' ? 'permanent' : 'temporary');
  const bounced = verdict.kind === 'permanent' ? await readers.recordBounce(subscriberId) : false;
  onEvent?.({ kind: 'failed', address, response: verdict.response, bounced });
}

/** The send-log row of this run's mail for one reader, as this worker holds it. */
function heldRow(run: Run, subscriberId: number): HeldSendRow {
  const { mail, claim } = run.options;
  return { edition: mail.edition, notice: mail.notice, subscriberId, worker: claim.worker };
}

function sendKey(mail: SendRunOptions['mail']): SendKey {
  return { edition: mail.edition, notice: mail.notice ?? 0 };
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
