// What every ranking of a week starts from — the build's, `list`'s and the desk's: the same candidates and the same
// selection policy, so they rank the same inputs the same way.
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../core/ports.js';
import type { DateWindow, StoredItem } from '../core/types.js';
import { withStoredLinks } from '../enrich/stored-links.js';
import type { Embedder } from '../llm/embeddings.js';
import { loadTaste } from '../select/taste-history.js';
import type { PlannedItem, SelectionPolicy } from '../select/types.js';
import type { Store } from '../store/types.js';
import { loadReaderTaste } from './reader-history.js';

/**
 * What a week's policy reads: decisions, earlier editions and their items (taste), what readers clicked in them,
 * the desk's item count.
 */
export type PolicyStore = Pick<Store, 'decisions' | 'editions' | 'items' | 'cache' | 'desk' | 'clicks'>;

/**
 * The week's candidates as every ranking sees them: stored items plus what enrichment cached about them (a post's
 * paper), read without fetching — so build, `list` and the desk rank the same inputs.
 */
export async function weekCandidates(
  store: Pick<Store, 'items' | 'cache'>,
  window: DateWindow,
): Promise<StoredItem[]> {
  return withStoredLinks(await store.items.candidates(window), store.cache);
}

export interface PolicyOptions {
  relevance?: Map<string, number>;
  /** The week's candidates, scored by learned taste up front (embeddings are fetched before planning). */
  candidates?: readonly StoredItem[];
  /** Learned taste from embeddings instead of tf-idf (falls back to tf-idf with a warning on `log`). */
  embedder?: Embedder | null;
  log?: Logger;
}

/** The selection policy for one week: config weights, editor decisions, earlier editions' items, learned taste. */
export async function selectionPolicy(
  { config, store, date }: { config: Config; store: PolicyStore; date: string },
  { relevance, ...taste }: PolicyOptions = {},
): Promise<SelectionPolicy> {
  const decisions = await store.decisions.get(date);
  const policy: SelectionPolicy = {
    sourceWeights: Object.fromEntries(config.sources.map((source) => [source.id, source.weight])),
    audience: config.audience,
    topics: config.selection.topics ?? [],
    excludeKeys: await store.editions.featuredBefore(date),
    itemsPerEdition: (await store.desk.week(date))?.itemCount ?? config.itemsPerEdition,
    pinnedKeys: new Set([...decisions].filter(([, decision]) => decision === 'pin').map(([key]) => key)),
    skippedKeys: new Set([...decisions].filter(([, decision]) => decision === 'skip').map(([key]) => key)),
  };
  if (config.selection.maxPerSource) policy.maxPerSource = config.selection.maxPerSource;
  if (config.selection.offTopics) policy.offTopics = config.selection.offTopics;
  policy.defaultTopics = config.selection.defaultTopics;
  policy.mix = config.selection.mix;
  if (config.selection.learnTaste) policy.taste = (await loadTaste(store, date, taste)).signal;
  if (config.selection.readerWeight > 0) {
    const readers = await loadReaderTaste(store, date);
    if (readers) policy.readers = { taste: readers, weight: config.selection.readerWeight };
  }
  if (relevance) policy.relevance = relevance;
  return policy;
}

/** The editor's order from the desk: listed keys first, in that order; the rest keep the plan's order. */
export function editorOrder(picks: PlannedItem[], order: readonly string[]): PlannedItem[] {
  const rank = new Map(order.map((key, index) => [key, index]));
  const at = (pick: PlannedItem) => rank.get(pick.item.key) ?? order.length;
  return picks
    .map((pick, index) => ({ pick, index }))
    .sort((a, b) => at(a.pick) - at(b.pick) || a.index - b.index)
    .map(({ pick }) => pick);
}
