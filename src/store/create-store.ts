// The Store over any SqlClient: each method is a query module's function bound to the client.
import type { Logger } from '../core/ports.js';
import { cacheGet, cachePut } from './cache.js';
import { decisions, setDecision } from './decisions.js';
import { featuredBefore, getEdition, listEditions, markPublished, saveEdition } from './editions.js';
import { addManualItem, getItem, listCandidates, updateItem } from './items.js';
import { getSourceState, lastIngestRun, recordIngestRun, setSourceState } from './source-state.js';
import type { SqlClient } from './sql-client.js';
import type { Store } from './types.js';
import { upsertItemsIn } from './upsert-items.js';

export function createStore(client: SqlClient, log?: Logger): Store {
  return {
    async upsertItems(items) {
      if (!items.length) return { inserted: 0, merged: 0, skipped: 0 };
      const { inserted, merged, skipped } = await client.transaction((tx) => upsertItemsIn(tx, items, log));
      return { inserted, merged, skipped };
    },
    listCandidates: (window) => listCandidates(client, window),
    getItem: (key) => getItem(client, key),
    addManualItem: (item, week, note) => addManualItem(client, item, week, note),
    updateItem: (key, patch) => updateItem(client, key, patch),
    getSourceState: (sourceId) => getSourceState(client, sourceId),
    setSourceState: (sourceId, state) => setSourceState(client, sourceId, state),
    saveEdition: (edition) => saveEdition(client, edition),
    getEdition: (date) => getEdition(client, date),
    listEditions: () => listEditions(client),
    markPublished: (date, at) => markPublished(client, date, at),
    featuredBefore: (date) => featuredBefore(client, date),
    setDecision: (week, itemKey, decision) => setDecision(client, week, itemKey, decision),
    decisions: (week) => decisions(client, week),
    cacheGet: (namespace, key) => cacheGet(client, namespace, key),
    cachePut: (namespace, key, value, ttlSeconds) => cachePut(client, namespace, key, value, ttlSeconds),
    recordIngestRun: (run) => recordIngestRun(client, run),
    lastIngestRun: () => lastIngestRun(client),
    close: () => client.close(),
  };
}
