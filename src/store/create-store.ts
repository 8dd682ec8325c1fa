// The Store over a Kysely database: each method is a query module's function bound to it.
import type { Kysely } from 'kysely';
import type { Logger } from '../core/ports.js';
import { cacheGet, cachePut } from './cache.js';
import { decisions, setDecision } from './decisions.js';
import { featuredBefore, getEdition, listEditions, markPublished, saveEdition } from './editions.js';
import { addManualItem, getItem, listCandidates, updateItem } from './items.js';
import type { Database } from './schema.js';
import { listPublishedEditions, publishedItem, searchItems } from './search.js';
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
  setSubscriberStatus,
} from './subscribers.js';
import type { Store } from './types.js';
import { upsertItemsIn } from './upsert-items.js';

export function createStore(
  db: Kysely<Database>,
  options: { log?: Logger; onClose?: () => Promise<void> } = {},
): Store {
  const { log } = options;
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
    getSourceState: (sourceId) => getSourceState(db, sourceId),
    setSourceState: (sourceId, state) => setSourceState(db, sourceId, state),
    saveEdition: (edition) => saveEdition(db, edition),
    getEdition: (date) => getEdition(db, date),
    listEditions: (listOptions) => listEditions(db, listOptions),
    markPublished: (date, at) => markPublished(db, date, at),
    featuredBefore: (date) => featuredBefore(db, date),
    setDecision: (week, itemKey, decision) => setDecision(db, week, itemKey, decision),
    decisions: (week) => decisions(db, week),
    cacheGet: (namespace, key) => cacheGet(db, namespace, key),
    cachePut: (namespace, key, value, ttlSeconds) => cachePut(db, namespace, key, value, ttlSeconds),
    recordIngestRun: (run) => recordIngestRun(db, run),
    lastIngestRun: () => lastIngestRun(db),
    requestSubscription: (address, mailbox) => requestSubscription(db, address, mailbox),
    putSubscriber: (address, mailbox, status) => putSubscriber(db, address, mailbox, status),
    getSubscriber: (by) => getSubscriber(db, by),
    claimConfirmationMail: (id, withinSeconds) => claimConfirmationMail(db, id, withinSeconds),
    setSubscriberStatus: (id, status, from) => setSubscriberStatus(db, id, status, from),
    recordBounce: (id, limit) => recordBounce(db, id, limit),
    removeSubscriber: (address) => removeSubscriber(db, address),
    listSubscribers: (options) => listSubscribers(db, options),
    countSubscribers: () => countSubscribers(db),
    searchItems: (query) => searchItems(db, query),
    publishedItem: (key) => publishedItem(db, key),
    listPublishedEditions: (page) => listPublishedEditions(db, page),
    async close() {
      try {
        await db.destroy();
      } finally {
        await options.onClose?.();
      }
    },
  };
}
