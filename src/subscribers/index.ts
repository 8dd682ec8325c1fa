// subscribers/ — the readers: subscribe and confirm (double opt-in, with an outbox for every mail), unsubscribe,
// their own preferences, the operator's list (add, import, export, delete), and `digest send` of an edition.
// This file is the room's one face: other rooms, the composition root and the entry points import only it. Use cases
// load their modules when first called; the settings and small rules below are light.

import type { DigestDeps } from '../deps.js';
import type { SubscriberExport } from '../store/preferences.js';
import type { SubscriberStatus } from '../store/schema.js';
import type { SendCounts } from '../store/send-log.js';
import type { ImportReport, ListedSubscriber, PutResult } from './manage.js';
import type { ReaderPreferencesUseCases } from './reader-preferences.js';
import type { SendInput, SendOutcome } from './send.js';
import type { Subscriptions } from './subscribe.js';

export {
  describeMail,
  type ImportReport,
  type ListedSubscriber,
  type PutResult,
  SUBSCRIBER_STATUSES,
} from './manage.js';
export type { OutboxEvent } from './outbox-worker.js';
export type { ReaderPreferencesUseCases } from './reader-preferences.js';
export type { SendInput, SendOutcome, SendProgress } from './send.js';
export type { MailStatus, SubscribeInput, Subscriptions } from './subscribe.js';
export { subscribeReadiness } from './subscribe-readiness.js';
export {
  renderSubscriberPage,
  type SubscriberPage,
  subscriptionSettings,
} from './subscription-settings.js';

/** The request intake and the outbox worker of confirmation and welcome mails: one per digest. */
export async function createSubscriptions(deps: DigestDeps): Promise<Subscriptions> {
  return (await import('./subscribe.js')).createSubscriptions(deps);
}

export async function createReaderPreferences(deps: DigestDeps): Promise<ReaderPreferencesUseCases> {
  return (await import('./reader-preferences.js')).createReaderPreferences(deps);
}

/** Everything stored about one reader (row, preferences, send log). */
export async function exportReader(deps: DigestDeps, input: { email: string }): Promise<SubscriberExport> {
  return (await import('./reader-preferences.js')).exportReader(deps, input);
}

export async function send(deps: DigestDeps, input: SendInput): Promise<SendOutcome> {
  return (await import('./send.js')).send(deps, input);
}

/** The send log by state over every edition: the hook for /metrics (mails sent, failed, uncertain). */
export async function sendLogCounts(deps: DigestDeps): Promise<SendCounts> {
  return (await import('./send.js')).sendLogCounts(deps);
}

/** Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain). */
export async function listSubscribers(
  deps: DigestDeps,
  status?: SubscriberStatus,
): Promise<AsyncGenerator<ListedSubscriber>> {
  return (await import('./manage.js')).listSubscribersWithMail(deps, status);
}

export async function addSubscriber(
  deps: DigestDeps,
  input: { email: string; confirmed: boolean },
): Promise<PutResult> {
  return (await import('./manage.js')).addSubscriber(deps, input);
}

export async function removeSubscriber(deps: DigestDeps, input: { email: string }): Promise<string> {
  return (await import('./manage.js')).removeSubscriber(deps, input);
}

export async function importSubscribers(
  deps: DigestDeps,
  input: { csv: string; confirmed: boolean },
): Promise<ImportReport> {
  return (await import('./manage.js')).importSubscribers(deps, input);
}

export async function exportSubscribers(
  deps: DigestDeps,
  input: { status?: SubscriberStatus },
): Promise<AsyncGenerator<string>> {
  return (await import('./manage.js')).exportSubscribers(deps, input);
}
