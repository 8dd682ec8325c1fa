export { type OpenStoreOptions, openStore, openStoreFromPglite } from './open-store.js';
export type { Store } from './types.js';
