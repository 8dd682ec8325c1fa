// subscribers/ — the readers: subscribe and confirm (double opt-in, with an outbox for every mail), unsubscribe,
// their own preferences, the operator's list (add, import, export, delete), and `digest send` of an edition.
// Beside the use cases, the settings and small rules exported here are light to import.

import { lazyModule } from '../core/lazy.js';

export { countedItemLink } from './click-tokens.js';
export { describeMail, SUBSCRIBER_STATUSES } from './manage.js';
export type { OutboxEvent } from './outbox-worker.js';
export type { ReaderPreferencesUseCases } from './reader-preferences.js';
export type { SendInput, SendOutcome, SendProgress } from './send.js';
export type { SendTestInput, SendTestOutcome } from './send-test.js';
export type { MailStatus, SubscribeInput, Subscriptions } from './subscribe.js';
// Lazy: it fills the subscribe slot with an HTML decoder (entities) that only `digest serve` needs, and every CLI
// command imports this public entry to register its commands.
export const { subscribeReadiness } = lazyModule(() => import('./subscribe-readiness.js'));
export {
  renderSubscriberPage,
  type SubscriberPage,
  subscriptionSettings,
} from './subscription-settings.js';

// The request intake and the outbox worker of confirmation and welcome mails: one per digest.
export const { createSubscriptions } = lazyModule(() => import('./subscribe.js'));

// exportReader: Everything stored about one reader (row, preferences, send log).
export const { createReaderPreferences, exportReader } = lazyModule(() => import('./reader-preferences.js'));

/** `digest send`: one edition to every confirmed reader, through the send log. */
export type { FollowAnswer, FollowRequest, LinkRedirect } from './link-redirect.js';
// `/r/<token>` of `digest serve`: counted links, their counts batched in memory and written every second.
export const { createLinkRedirect } = lazyModule(() => import('./link-redirect.js'));
export const { send } = lazyModule(() => import('./send.js'));
// "Send at…": a send set for a later time and its cancel; `digest serve`'s scheduler performs it.
export type { ScheduleSendInput } from './send-schedule.js';
export type { SendScheduler, SendSchedulerOptions } from './send-scheduler.js';
export const { scheduleSend, cancelScheduledSend } = lazyModule(() => import('./send-schedule.js'));
export const { createSendScheduler } = lazyModule(() => import('./send-scheduler.js'));
// sendTest: a test of the edition's mail to one address ("[Test]", links that count nothing, no send-log row).
export const { sendTest } = lazyModule(() => import('./send-test.js'));

// listSubscribers: Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain).
export const {
  listSubscribersWithMail: listSubscribers,
  addSubscriber,
  removeSubscriber,
  exportSubscribers,
} = lazyModule(() => import('./manage.js'));

export const { importSubscribers } = lazyModule(() => import('./import-csv.js'));

export { confirmationMailReady, describeImport, type ImportReport } from './import-csv.js';
export type { AddResult } from './manage.js';
export {
  parseReaderFilter,
  READER_FILTERS,
  type ReaderFilter,
  type ReaderPage,
} from './reader-list.js';

// findReaders: the desk's list, a page of readers by filter with the counts per status; readerRecord: one reader's
// whole record by row (the JSON of `digest subscribers export <email>`); removeReader: deletes one by row.
export const { findReaders, readerRecord, removeReader } = lazyModule(() => import('./reader-list.js'));
