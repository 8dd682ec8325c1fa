// subscribers/ — the readers: subscribe and confirm (double opt-in, with an outbox for every mail), unsubscribe,
// their own preferences, the operator's list (add, import, export, delete), and `digest send` of an edition.
// Beside the use cases, the settings and small rules exported here are light to import.

import { lazy } from '../core/lazy.js';

export { countedItemLink } from './click-tokens.js';
export { describeMail, SUBSCRIBER_STATUSES } from './manage.js';
export type { OutboxEvent } from './outbox-worker.js';
export type { ReaderPreferencesUseCases } from './reader-preferences.js';
export type { SendInput, SendOutcome, SendProgress } from './send.js';
export type { MailStatus, SubscribeInput, Subscriptions } from './subscribe.js';
// Lazy: it fills the subscribe slot with an HTML decoder (entities) that only `digest serve` needs, and every CLI
// command imports this public entry to register its commands.
export const subscribeReadiness = lazy(
  async () => (await import('./subscribe-readiness.js')).subscribeReadiness,
);
export {
  renderSubscriberPage,
  type SubscriberPage,
  subscriptionSettings,
} from './subscription-settings.js';

/** The request intake and the outbox worker of confirmation and welcome mails: one per digest. */
export const createSubscriptions = lazy(async () => (await import('./subscribe.js')).createSubscriptions);

export const createReaderPreferences = lazy(
  async () => (await import('./reader-preferences.js')).createReaderPreferences,
);

/** Everything stored about one reader (row, preferences, send log). */
export const exportReader = lazy(async () => (await import('./reader-preferences.js')).exportReader);

/** `digest send`: one edition to every confirmed reader, through the send log. */
export type { FollowAnswer, FollowRequest, LinkRedirect } from './link-redirect.js';
/** `/r/<token>` of `digest serve`: counted links, their counts batched in memory and written every second. */
export const createLinkRedirect = lazy(async () => (await import('./link-redirect.js')).createLinkRedirect);
export const send = lazy(async () => (await import('./send.js')).send);

/** The send log by state over every edition: the hook for /metrics (mails sent, failed, uncertain). */
export const sendLogCounts = lazy(async () => (await import('./send.js')).sendLogCounts);

/** Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain). */
export const listSubscribers = lazy(async () => (await import('./manage.js')).listSubscribersWithMail);

export const addSubscriber = lazy(async () => (await import('./manage.js')).addSubscriber);

export const removeSubscriber = lazy(async () => (await import('./manage.js')).removeSubscriber);

export const importSubscribers = lazy(async () => (await import('./import-csv.js')).importSubscribers);

export const exportSubscribers = lazy(async () => (await import('./manage.js')).exportSubscribers);

export { confirmationMailReady, describeImport, type ImportReport } from './import-csv.js';
export type { AddResult } from './manage.js';
export {
  parseReaderFilter,
  READER_FILTERS,
  type ReaderFilter,
  type ReaderPage,
} from './reader-list.js';

/** The desk's list: a page of readers by filter, with the counts per status. */
export const findReaders = lazy(async () => (await import('./reader-list.js')).findReaders);

/** One reader's whole record by row (the JSON of `digest subscribers export <email>`). */
export const readerRecord = lazy(async () => (await import('./reader-list.js')).readerRecord);

/** Deletes one reader by row, with everything stored about them. */
export const removeReader = lazy(async () => (await import('./reader-list.js')).removeReader);
