import type { DateWindow, StoredItem } from '../core/types.js';
import type { ReaderTaste } from './reader-taste.js';
import type { TasteSignal } from './taste.js';

/** How many posts (items without an arXiv id) the edition carries besides the editor's own additions. */
export interface PostMix {
  /** At most this many posts among the picks the ranking makes. */
  maxPosts: number;
  /** At least this many when a relevant (on-topic) post exists. */
  minPosts: number;
}

export interface SelectionPolicy {
  itemsPerEdition: number;
  /** Configured weight per source id (default 1). */
  sourceWeights: Record<string, number>;
  audience: string;
  /** Topic keywords from config, used by the offline relevance signal. */
  topics: string[];
  /** Items featured in earlier published editions: not candidates again unless pinned. */
  excludeKeys: Set<string>;
  pinnedKeys: Set<string>;
  skippedKeys: Set<string>;
  /** Optional cap on picks per source id. */
  maxPerSource?: number;
  /** LLM triage scores (0–10) by item key, when an LLM triaged the week. */
  relevance?: Map<string, number>;
  /** Topics this audience rarely acts on (lower offline relevance), added to the defaults. */
  offTopics?: string[];
  /** Use the product's default topic profile (src/select/default-topics.ts). Default true. */
  defaultTopics?: boolean;
  /** Posts among the ranked picks (config `selection.mix`); unset: no bounds. */
  mix?: PostMix;
  /** The installation's learned taste (select/taste.ts), blended into relevance; unset or null: none yet. */
  taste?: TasteSignal | null;
  /** What readers clicked in earlier editions (select/reader-taste.ts) and the weight it gets; unset: none. */
  readers?: { taste: ReaderTaste; weight: number } | null;
}

export interface PlannedItem {
  item: StoredItem;
  score: number;
  /** Each normalised signal and its contribution, for `digest list` and edition.json `why`. */
  signals: Record<string, number>;
  pinned: boolean;
}

export interface EditionPlan {
  date: string;
  window: DateWindow;
  /** Chosen items in edition order. */
  picks: PlannedItem[];
  /** Every candidate, best first (after exclusions). */
  ranked: PlannedItem[];
  excluded: { key: string; reason: string }[];
}
