// The intake of subscribe requests. Requests wait here for the database and are stored in batches, one transaction
// each: a burst costs a few statements instead of one per reader (PGlite writes on this thread), and each request
// is answered once its batch is committed — an answered request is a stored one. Requests are keyed by mailbox (the
// inbox, core/email-address.ts): variants of one address share one wait, one row and one memory.
import type { Logger } from '../core/ports.js';
import type { ReaderPreferences } from '../core/types.js';
import type { RequestedSubscriber } from '../store/subscribers.js';
import type { Store } from '../store/types.js';

/** One confirmation mail per inbox (canonical mailbox) in this window. */
export const CONFIRMATION_WINDOW_SECONDS = 3600;
/** Subscribe requests waiting for the database at most; beyond, the answer is "busy" (503) for everyone. */
const MAX_WAITING_REQUESTS = 10_000;
/** Requests stored per transaction. */
const INTAKE_BATCH = 500;
/** Mailboxes this process stored within the confirmation window, at most (the least recent are forgotten first). */
const MAX_RECENT_ADDRESSES = 100_000;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface IntakeDeps {
  store: Pick<Store, 'outbox' | 'preferences'>;
  log: Logger;
  /** Milliseconds since the epoch, from the clock port. */
  now: () => number;
  /** The intake ran dry after storing requests that queued mails: time for the outbox worker. */
  mailsQueued: () => void;
}

export interface SubscribeRequest {
  address: string;
  mailbox: string;
  /** The form's edition choices, kept only when the request begins a subscription (a new reader, or one back). */
  preferences: ReaderPreferences | null;
}

export interface Intake {
  /** True once the request is stored (or was within the hour); false when busy or the database failed. */
  submit(request: SubscribeRequest): Promise<boolean>;
  /** The reader of this mailbox left (or bounced): a new request must reach the database. */
  forget(mailbox: string): void;
  /** Resolves once every waiting request is stored. */
  idle(): Promise<void>;
}

export function createIntake(deps: IntakeDeps): Intake {
  const recent = recentAddresses(deps.now);
  /** The requests waiting, by mailbox: the address of the first, and how to answer them. */
  const intake = new Map<string, { address: string; stored: (ok: boolean) => void }>();
  const waiting = new Map<string, Promise<boolean>>();
  /** The form's edition choices of the requests waiting, by mailbox. */
  const choices = new Map<string, ReaderPreferences>();
  let draining: Promise<void> | null = null;
  /** Mails queued by batches since the intake last ran dry. */
  let queuedSinceDrained = 0;

  /** The oldest requests first, without copying the whole backlog each turn. */
  function takeBatch() {
    const batch: { address: string; mailbox: string }[] = [];
    const answers: ((ok: boolean) => void)[] = [];
    for (const [mailbox, entry] of intake) {
      batch.push({ address: entry.address, mailbox });
      answers.push(entry.stored);
      intake.delete(mailbox);
      if (batch.length === INTAKE_BATCH) break;
    }
    return { batch, answers };
  }

  function drain(): Promise<void> {
    draining ??= (async () => {
      try {
        while (intake.size > 0) {
          // PGlite runs on this thread: answers to other readers go out between batches.
          await yieldToIo();
          const { batch, answers } = takeBatch();
          const { ok, queued } = await storeBatch(deps, batch, { recent, choices });
          queuedSinceDrained += queued;
          for (const { mailbox } of batch) {
            waiting.delete(mailbox);
            choices.delete(mailbox);
          }
          for (const answer of answers) answer(ok);
        }
      } finally {
        draining = null;
        // The worker starts once the intake has run dry: during a burst, storing (and answering) readers comes
        // first, and the database (PGlite: this thread) is not shared with the mails meanwhile.
        if (queuedSinceDrained > 0) {
          queuedSinceDrained = 0;
          deps.mailsQueued();
        }
      }
    })();
    return draining;
  }

  return {
    async submit({ address, mailbox, preferences }) {
      if (recent.has(mailbox)) return true;
      // The same mailbox already waiting (maybe by another of its addresses): one row, one mail, one answer for all.
      let stored = waiting.get(mailbox);
      if (!stored) {
        if (waiting.size >= MAX_WAITING_REQUESTS) return false;
        stored = new Promise<boolean>((resolve) => intake.set(mailbox, { address, stored: resolve }));
        waiting.set(mailbox, stored);
        if (preferences) choices.set(mailbox, preferences);
        void drain();
      }
      return stored;
    },
    forget: (mailbox) => recent.forget(mailbox),
    async idle() {
      while (draining) await draining;
    },
  };
}

/**
 * A mailbox stored within the hour needs no second visit to the database: its row is pending (and its mail
 * queued) or confirmed, and another request could change neither. Leaving forgets it, so subscribing again works.
 */
type RecentAddresses = ReturnType<typeof recentAddresses>;

function recentAddresses(now: () => number) {
  const recent = new Map<string, number>();
  const windowMs = CONFIRMATION_WINDOW_SECONDS * 1000;
  return {
    has(mailbox: string): boolean {
      const at = recent.get(mailbox);
      return at !== undefined && now() - at < windowMs;
    },
    remember(mailbox: string): void {
      recent.delete(mailbox);
      recent.set(mailbox, now());
      while (recent.size > MAX_RECENT_ADDRESSES) recent.delete(recent.keys().next().value!);
    },
    forget(mailbox: string): void {
      recent.delete(mailbox);
    },
  };
}

/** One transaction for a batch of requests; false when it failed (each request is then answered "busy"). */
async function storeBatch(
  deps: Pick<IntakeDeps, 'store' | 'log'>,
  batch: { address: string; mailbox: string }[],
  memory: { recent: RecentAddresses; choices: Map<string, ReaderPreferences> },
): Promise<{ ok: boolean; queued: number }> {
  try {
    const { subscribers, queued } = await deps.store.outbox.requestSubscriptions(
      batch,
      CONFIRMATION_WINDOW_SECONDS,
    );
    for (const { mailbox } of batch) memory.recent.remember(mailbox);
    await storeChoices(deps, subscribers, memory.choices);
    return { ok: true, queued };
  } catch (error) {
    deps.log.warn(`subscribe: storing ${batch.length} request(s) failed: ${errorText(error)}`);
    return { ok: false, queued: 0 };
  }
}

/**
 * A form's choices count only when its request began the subscription (a new reader, or one who left and came
 * back): anyone can post the form, so it never changes a pending or confirmed reader's edition — their signed
 * preferences link does.
 */
async function storeChoices(
  deps: Pick<IntakeDeps, 'store' | 'log'>,
  stored: RequestedSubscriber[],
  choices: Map<string, ReaderPreferences>,
): Promise<void> {
  for (const subscriber of stored) {
    const chosen = choices.get(subscriber.mailbox);
    choices.delete(subscriber.mailbox);
    if (!chosen || !subscriber.fresh) continue;
    await deps.store.preferences
      .set(subscriber.id, chosen)
      .catch((error: unknown) =>
        deps.log.warn(
          `subscribe: storing the choices of subscriber ${subscriber.id} failed: ${errorText(error)}`,
        ),
      );
  }
}
