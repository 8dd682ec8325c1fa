// The Store over a Kysely database: each method is a query module's function bound to it, gathered by port group.
import type { Kysely } from 'kysely';
import type { Logger } from '../core/ports.js';
import { cacheGet, cachePut } from './cache.js';
import { decisions, setDecision } from './decisions.js';
import {
  addEditor,
  createSession,
  editorCredentials,
  getSession,
  listEditors,
  removeEditor,
  revokeSession,
} from './desk-editors.js';
import {
  approval,
  deskDecisions,
  deskEdits,
  deskWeek,
  keepEditorEdits,
  listAudit,
  recordApproval,
  recordAudit,
  saveDeskEdits,
  setDeskWeek,
} from './desk-edits.js';
import { featuredBefore, getEdition, listEditions, markPublished, saveEdition } from './editions.js';
import { addManualItem, getItem, listCandidates, updateItem } from './items.js';
import { type JobLockKind, withJobLock } from './job-lock.js';
import {
  claimOutbox,
  confirmSubscription,
  mailProblems,
  outboxHandOver,
  outboxHealth,
  requestSubscriptionsWithMail,
  settleOutbox,
} from './outbox.js';
import { paperTexts, savePaperText } from './paper-texts.js';
import { exportSubscriber, getPreferences, setPreferences } from './preferences.js';
import { revisionQueries } from './revisions.js';
import type { Database } from './schema.js';
import { listPublishedEditions, publishedItem, searchItems } from './search.js';
import {
  enqueueSend,
  handOver,
  listSendLog,
  previewRecipients,
  recordFailed,
  recordSent,
  recoverAbandoned,
  requeueUncertain,
  reserveSendBatch,
  sendClaimers,
  sendCounts,
  sendLogCounts,
  startSending,
} from './send-log.js';
import { getSourceState, lastIngestRun, recordIngestRun, setSourceState } from './source-state.js';
import {
  claimConfirmationMail,
  countSubscribers,
  getSubscriber,
  listSubscribers,
  putSubscriber,
  recordBounce,
  removeSubscriber,
  requestSubscription,
  requestSubscriptions,
  setSubscriberStatus,
} from './subscribers.js';
import { getTranslations, saveTranslation, saveTranslationEdit } from './translations.js';
import type {
  CachePort,
  CandidatesPort,
  DecisionsPort,
  DeskPort,
  EditionsPort,
  EditorsPort,
  IngestRunsPort,
  ItemsPort,
  OutboxPort,
  PaperTextsPort,
  SearchPort,
  SendLogPort,
  SharedDatabase,
  SourceStatePort,
  Store,
  SubscribersPort,
  TranslationsPort,
} from './types.js';
import { upsertItemsIn } from './upsert-items.js';

export interface CreateStoreOptions {
  log?: Logger;
  onClose?: () => Promise<void>;
  /** How `withJobLock` keeps a job to one process (default: an advisory lock). */
  jobLock?: JobLockKind;
  /** Starts sharing the database with other commands (PGlite in a data folder only). */
  share?: () => Promise<SharedDatabase | null>;
}

export function createStore(db: Kysely<Database>, options: CreateStoreOptions = {}): Store {
  let shared: Promise<SharedDatabase | null> | null = null;
  return {
    ...itemPorts(db, options.log),
    ...editionPorts(db),
    ...bookkeepingPorts(db),
    ...subscriberPorts(db),
    ...deskPorts(db),
    ...sendLogPort(db),
    revisions: revisionQueries(db),
    withJobLock: (name, fn) => withJobLock(db, options.jobLock ?? 'advisory', name, fn),
    shareDatabase() {
      shared ??= options.share ? options.share() : Promise.resolve(null);
      return shared;
    },
    async close() {
      try {
        // Other commands first, so nothing reaches the database while it closes.
        await (await shared?.catch(() => null))?.close();
        await db.destroy();
      } finally {
        await options.onClose?.();
      }
    },
  };
}

/** The items: what ingest writes and the build reads. */
function itemPorts(db: Kysely<Database>, log: Logger | undefined): ItemsPort & CandidatesPort {
  return {
    async upsertItems(items) {
      if (!items.length) return { inserted: 0, merged: 0, skipped: 0 };
      const { inserted, merged, skipped } = await db
        .transaction()
        .execute((tx) => upsertItemsIn(tx, items, log));
      return { inserted, merged, skipped };
    },
    listCandidates: (window) => listCandidates(db, window),
    getItem: (key) => getItem(db, key),
    addManualItem: (item, week, note) => addManualItem(db, item, week, note),
    updateItem: (key, patch) => updateItem(db, key, patch),
  };
}

/** Editions, the editor's pins and skips, their translations, and the published archive's search. */
function editionPorts(db: Kysely<Database>): EditionsPort & DecisionsPort & TranslationsPort & SearchPort {
  return {
    saveEdition: (edition) => saveEdition(db, edition),
    getEdition: (date) => getEdition(db, date),
    listEditions: (listOptions) => listEditions(db, listOptions),
    markPublished: (date, at) => markPublished(db, date, at),
    featuredBefore: (date) => featuredBefore(db, date),
    setDecision: (week, itemKey, decision) => setDecision(db, week, itemKey, decision),
    decisions: (week) => decisions(db, week),
    saveTranslation: (date, translation, warnings) => saveTranslation(db, date, translation, warnings),
    saveTranslationEdit: (date, language, edited) => saveTranslationEdit(db, date, language, edited),
    getTranslations: (date) => getTranslations(db, date),
    searchItems: (query) => searchItems(db, query),
    publishedItem: (key) => publishedItem(db, key),
    listPublishedEditions: (page) => listPublishedEditions(db, page),
  };
}

/** What runs keep between them: the LLM cache, paper texts, each source's state and the ingest runs. */
function bookkeepingPorts(
  db: Kysely<Database>,
): CachePort & PaperTextsPort & SourceStatePort & IngestRunsPort {
  return {
    cacheGet: (namespace, key) => cacheGet(db, namespace, key),
    cachePut: (namespace, key, value, ttlSeconds) => cachePut(db, namespace, key, value, ttlSeconds),
    paperTexts: (arxivIds) => paperTexts(db, arxivIds),
    savePaperText: (record) => savePaperText(db, record),
    getSourceState: (sourceId) => getSourceState(db, sourceId),
    setSourceState: (sourceId, state) => setSourceState(db, sourceId, state),
    recordIngestRun: (run) => recordIngestRun(db, run),
    lastIngestRun: () => lastIngestRun(db),
  };
}

/** Subscribers, their preferences and the outbox of their confirmation and welcome mails. */
function subscriberPorts(db: Kysely<Database>): SubscribersPort & OutboxPort {
  return {
    requestSubscription: (address, mailbox) => requestSubscription(db, address, mailbox),
    requestSubscriptions: (requests) => requestSubscriptions(db, requests),
    putSubscriber: (address, mailbox, status) => putSubscriber(db, address, mailbox, status),
    getSubscriber: (by) => getSubscriber(db, by),
    claimConfirmationMail: (id, withinSeconds) => claimConfirmationMail(db, id, withinSeconds),
    setSubscriberStatus: (id, status, from) => setSubscriberStatus(db, id, status, from),
    recordBounce: (id, limit) => recordBounce(db, id, limit),
    removeSubscriber: (address) => removeSubscriber(db, address),
    listSubscribers: (options) => listSubscribers(db, options),
    countSubscribers: () => countSubscribers(db),
    getPreferences: (id) => getPreferences(db, id),
    setPreferences: (id, preferences) => setPreferences(db, id, preferences),
    exportSubscriber: (address) => exportSubscriber(db, address),
    requestSubscriptionsWithMail: (requests, windowSeconds) =>
      requestSubscriptionsWithMail(db, requests, windowSeconds),
    confirmSubscription: (id, generation, welcome) => confirmSubscription(db, id, generation, welcome),
    claimOutbox: (worker, limit, leaseSeconds) => claimOutbox(db, worker, limit, leaseSeconds),
    outboxHandOver: (id, worker) => outboxHandOver(db, id, worker),
    settleOutbox: (id, worker, outcome) => settleOutbox(db, id, worker, outcome),
    outboxHealth: () => outboxHealth(db),
    mailProblems: (ids) => mailProblems(db, ids),
  };
}

/** The editor's desk: who may sign in, their sessions, edits, decisions, approval and the audit log. */
function deskPorts(db: Kysely<Database>): EditorsPort & DeskPort {
  return {
    addEditor: (email, passwordHash) => addEditor(db, email, passwordHash),
    editorCredentials: (email) => editorCredentials(db, email),
    listEditors: () => listEditors(db),
    removeEditor: (email) => removeEditor(db, email),
    createSession: (session) => createSession(db, session),
    getSession: (tokenHash, now) => getSession(db, tokenHash, now),
    revokeSession: (tokenHash, now) => revokeSession(db, tokenHash, now),
    deskEdits: (week) => deskEdits(db, week),
    saveDeskEdits: (week, itemKey, expected, changes, by) =>
      saveDeskEdits(db, week, itemKey, expected, changes, by),
    keepEditorEdits: (edition) => keepEditorEdits(db, edition),
    deskWeek: (week) => deskWeek(db, week),
    setDeskWeek: (week, patch, by) => setDeskWeek(db, week, patch, by),
    setDeskDecision: (week, itemKey, decision, by) => setDecision(db, week, itemKey, decision, by),
    deskDecisions: (week) => deskDecisions(db, week),
    recordApproval: (week, by) => recordApproval(db, week, by),
    approval: (week) => approval(db, week),
    recordAudit: (entry) => recordAudit(db, entry),
    listAudit: (listOptions) => listAudit(db, listOptions),
  };
}

/** The send log of `digest send`: one row per edition and subscriber. */
function sendLogPort(db: Kysely<Database>): SendLogPort {
  return {
    enqueueSend: (edition) => enqueueSend(db, edition),
    sendClaimers: (edition) => sendClaimers(db, edition),
    recoverAbandoned: (edition, dead, lease) => recoverAbandoned(db, edition, dead, lease),
    requeueUncertain: (edition) => requeueUncertain(db, edition),
    reserveSendBatch: (edition, worker, limit, dead, lease) =>
      reserveSendBatch(db, edition, worker, limit, dead, lease),
    startSending: (edition, id, worker) => startSending(db, edition, id, worker),
    handOver: (edition, id, worker) => handOver(db, edition, id, worker),
    recordSent: (edition, id, worker, sent) => recordSent(db, edition, id, worker, sent),
    recordFailed: (edition, id, worker, failed) => recordFailed(db, edition, id, worker, failed),
    sendCounts: (edition) => sendCounts(db, edition),
    sendLogCounts: () => sendLogCounts(db),
    listSendLog: (edition, options) => listSendLog(db, edition, options),
    previewRecipients: (edition, options) => previewRecipients(db, edition, options),
  };
}
