// `digest subscribers list|add|remove|export`: the operator's side of the subscriber list (import: import-csv.ts).
// Addresses are normalised like the subscribe form's; adding never re-subscribes someone who unsubscribed or bounced.

import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError, NotFoundError } from '../core/errors.js';
import type { MailProblem } from '../store/outbox.js';
import type { ImportOutcome } from '../store/readers.js';
import type { SubscriberStatus } from '../store/schema.js';
import type { Subscriber } from '../store/subscribers.js';
import { requireConfirmationMail } from './import-csv.js';
import { CONFIRMATION_WINDOW_SECONDS } from './intake.js';
import type { AddReadersDeps, ListReadersDeps, ReadersDeps } from './ports.js';

export const SUBSCRIBER_STATUSES: readonly SubscriberStatus[] = [
  'pending',
  'confirmed',
  'unsubscribed',
  'bounced',
];

/** What adding one address did: the import's outcome, the row, and whether a confirmation mail was queued. */
export interface AddResult {
  outcome: ImportOutcome;
  subscriber: Subscriber;
  mailed: boolean;
}

/** Every subscriber (of one status), a page at a time, so a long list never sits in memory at once. */
export async function* eachSubscriber(
  deps: ReadersDeps,
  status?: SubscriberStatus,
): AsyncGenerator<Subscriber> {
  let afterId = 0;
  for (;;) {
    const page = await deps.store.subscribers.list({ afterId, limit: 1000, ...(status ? { status } : {}) });
    yield* page;
    if (page.length < 1000) return;
    afterId = page.at(-1)!.id;
  }
}

/** A subscriber as `digest subscribers list` shows them: with their latest mail when it has not gone out. */
export type ListedSubscriber = Subscriber & { mail?: Omit<MailProblem, 'subscriberId'> };

/** Every subscriber (of one status) with the confirmation or welcome mail that failed, waits or is uncertain. */
export async function* listSubscribersWithMail(
  deps: ListReadersDeps,
  status?: SubscriberStatus,
): AsyncGenerator<ListedSubscriber> {
  let page: Subscriber[] = [];
  const flush = async function* () {
    const problems = new Map(
      (await deps.store.outbox.mailProblems(page.map((entry) => entry.id))).map(
        ({ subscriberId, ...mail }) => [subscriberId, mail],
      ),
    );
    for (const subscriber of page) {
      const mail = problems.get(subscriber.id);
      yield mail ? { ...subscriber, mail } : subscriber;
    }
    page = [];
  };
  for await (const subscriber of eachSubscriber(deps, status)) {
    page.push(subscriber);
    if (page.length === 1000) yield* flush();
  }
  yield* flush();
}

/** One line's mail column: what became of the reader's latest mail, when it has not gone out. */
export function describeMail(mail: ListedSubscriber['mail']): string {
  if (!mail) return '';
  const reason = mail.lastError ? `: ${mail.lastError.slice(0, 200)}` : '';
  if (mail.state === 'failed') return `${mail.kind} mail failed${reason}`;
  if (mail.state === 'uncertain') return `${mail.kind} mail uncertain${reason}`;
  if (mail.attempts > 0 && mail.lastError)
    return `${mail.kind} mail retrying (${mail.attempts} attempts${reason})`;
  return `${mail.kind} mail waiting`;
}

/** An address the operator typed, in normal form; a ConfigError naming the email field when it is not one. */
export function operatorAddress(email: string): { address: string; mailbox: string } {
  const checked = normaliseAddress(email);
  if (!checked.ok) {
    throw new ConfigError(`email: ${ADDRESS_PROBLEMS[checked.problem]} (got ${JSON.stringify(email)}).`, [
      { path: 'email', message: ADDRESS_PROBLEMS[checked.problem] },
    ]);
  }
  return { address: checked.address, mailbox: checked.mailbox };
}

/**
 * Adds one address as an import of one line: pending with a confirmation mail queued, or — with `consentBy`, who
 * asserts the reader's consent — confirmed at once and recorded so. Someone who left or bounced stays so. `by`: who
 * adds them (their status history names them).
 */
export async function addSubscriber(
  deps: AddReadersDeps,
  input: { email: string; consentBy: string | null; by?: string | undefined },
): Promise<AddResult> {
  const { address, mailbox } = operatorAddress(input.email);
  if (!input.consentBy) requireConfirmationMail(deps.config);
  const { outcomes, queued } = await deps.store.readers.importBatch([{ address, mailbox }], {
    consentBy: input.consentBy,
    windowSeconds: CONFIRMATION_WINDOW_SECONDS,
    source: { kind: 'add', by: input.by ?? null },
  });
  const subscriber =
    (await deps.store.subscribers.get({ address })) ?? (await deps.store.subscribers.get({ mailbox }));
  return { outcome: outcomes[0]!, subscriber: subscriber!, mailed: queued > 0 };
}

/** Deletes the person's row and their send-log rows. */
export async function removeSubscriber(deps: ReadersDeps, input: { email: string }): Promise<string> {
  const checked = normaliseAddress(input.email);
  const address = checked.ok ? checked.address : input.email.trim();
  if (!(await deps.store.subscribers.remove(address))) {
    throw new NotFoundError(`No subscriber ${JSON.stringify(address)}: nothing removed.`);
  }
  return address;
}

/** CSV lines of the list: `email,status,created_at,confirmed_at` (import reads the email column back). */
export async function* exportSubscribers(
  deps: ReadersDeps,
  input: { status?: SubscriberStatus },
): AsyncGenerator<string> {
  yield 'email,status,created_at,confirmed_at\n';
  for await (const subscriber of eachSubscriber(deps, input.status)) {
    // Addresses are normalised dot-atoms (no comma, quote or line break), so no field needs quoting.
    yield `${subscriber.address},${subscriber.status},${subscriber.createdAt},${subscriber.confirmedAt ?? ''}\n`;
  }
}
