export { type OpenStoreOptions, openStore, openStoreFromPglite } from './open-store.js';
export type {
  CachePort,
  CandidatesPort,
  DecisionsPort,
  EditionSummary,
  EditionsPort,
  EditorDecision,
  IngestRun,
  IngestRunsPort,
  ItemPatch,
  ItemsPort,
  SourceStatePort,
  Store,
  UpsertResult,
} from './types.js';
