export { type OpenStoreOptions, openStore, openStoreFromPglite } from './open-store.js';
export type { EditionSummary, EditorDecision, IngestRun, Store, UpsertResult } from './types.js';
