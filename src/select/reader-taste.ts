// Taste that learns from readers: which topics, sources and kinds (paper or post) the readers of this newsletter
// click more than the rest of the edition they came in. Pure: the click counts per item of each published edition
// are read by editions/reader-history.ts. Counts, never people: it learns from aggregate clicks per item only, so it
// works the same in the "aggregate" and "per-reader" modes (docs/selection.md, "What readers click").
import { itemTopics } from './topic-match.js';

/** One item of a published edition, with the clicks readers made on it (scanner prefetches left out). */
export interface ClickedItem {
  title: string;
  /** What the item is about in words: the summary and takeaways readers saw. */
  summary: string;
  takeaways: readonly string[];
  source: string;
  arxivId: string | null;
  clicks: number;
}

/** A feature readers clicked more (affinity > 1) or less (< 1) than the rest of the edition they came in. */
export interface ReaderFeature {
  /** "topic:agents", "source:openai-blog", "kind:paper". */
  feature: string;
  /** Mean click lift of the items with it, smoothed toward 1 (1: clicked like the average item of its edition). */
  affinity: number;
  /** Items with this feature the lift was learned from. */
  items: number;
  clicks: number;
}

export interface ReaderTaste {
  /** Editions with at least MIN_EDITION_CLICKS clicks: the ones it learned from. */
  editions: number;
  clicks: number;
  features: Map<string, ReaderFeature>;
}

/** An edition with fewer clicks says too little about which items readers preferred. */
export const MIN_EDITION_CLICKS = 5;
/** Pseudo-items of lift 1 each feature starts with: one item clicked twice as often moves it little. */
const PRIOR_ITEMS = 3;
/** How far a lift counts on the log scale before it saturates (log2: 2 = four times the average item). */
const MAX_LOG_LIFT = 2;

export type CandidateFeatures = {
  title: string;
  text: string;
  primarySource: string;
  arxivId: string | null;
};

/** The features a candidate (a stored item, before it is written) carries, by the same topic rule as editions. */
export function candidateFeatures(item: CandidateFeatures): string[] {
  return featuresOf({
    title: item.title,
    summary: item.text,
    takeaways: [],
    source: item.primarySource,
    arxivId: item.arxivId,
  });
}

function featuresOf(item: Omit<ClickedItem, 'clicks'>): string[] {
  return [
    ...itemTopics(item).map((topic) => `topic:${topic}`),
    `source:${item.source}`,
    `kind:${item.arxivId ? 'paper' : 'post'}`,
  ];
}

/**
 * Each item's lift is its clicks over the edition's mean clicks per item (so a big week and a small week count
 * alike); a feature's affinity is the smoothed mean lift of the items carrying it. Null when no edition has enough
 * clicks to learn from.
 */
export function learnReaderTaste(editions: readonly (readonly ClickedItem[])[]): ReaderTaste | null {
  const sums = new Map<string, { lift: number; items: number; clicks: number }>();
  let learned = 0;
  let clicks = 0;
  for (const items of editions) {
    const total = items.reduce((sum, item) => sum + Math.max(0, item.clicks), 0);
    if (total < MIN_EDITION_CLICKS || items.length === 0) continue;
    learned++;
    clicks += total;
    const mean = total / items.length;
    for (const item of items) {
      const lift = Math.max(0, item.clicks) / mean;
      for (const feature of new Set(featuresOf(item))) {
        const sum = sums.get(feature) ?? { lift: 0, items: 0, clicks: 0 };
        sum.lift += lift;
        sum.items++;
        sum.clicks += Math.max(0, item.clicks);
        sums.set(feature, sum);
      }
    }
  }
  if (learned === 0) return null;
  const features = new Map<string, ReaderFeature>();
  for (const [feature, sum] of sums) {
    const affinity = (sum.lift + PRIOR_ITEMS) / (sum.items + PRIOR_ITEMS);
    features.set(feature, { feature, affinity: round(affinity), items: sum.items, clicks: sum.clicks });
  }
  return { editions: learned, clicks, features };
}

/**
 * What readers would make of each candidate, 0–1: 0.5 when nothing it carries was learned, above for what readers
 * click more, below for what they click less. Each dimension (its topics, its source, its kind) adds the mean log
 * lift of its learned features, so an item on three topics does not count its topics three times; squashed to 0–1.
 */
export function readerScores(taste: ReaderTaste, items: readonly CandidateFeatures[]): number[] {
  return items.map((item) => {
    const byDimension = new Map<string, number[]>();
    for (const name of candidateFeatures(item)) {
      const feature = taste.features.get(name);
      if (!feature) continue;
      const dimension = name.slice(0, name.indexOf(':'));
      byDimension.set(dimension, [...(byDimension.get(dimension) ?? []), Math.log2(feature.affinity)]);
    }
    let logLift = 0;
    for (const lifts of byDimension.values()) logLift += lifts.reduce((a, b) => a + b, 0) / lifts.length;
    const bounded = Math.max(-MAX_LOG_LIFT, Math.min(MAX_LOG_LIFT, logLift));
    return round(0.5 + bounded / (2 * MAX_LOG_LIFT));
  });
}

/** The features readers taught most, for `digest taste`: clicked more first, then clicked less. */
export function readerLessons(
  taste: ReaderTaste,
  count = 8,
): { clickedMore: ReaderFeature[]; clickedLess: ReaderFeature[] } {
  const all = [...taste.features.values()];
  const byAffinity = (a: ReaderFeature, b: ReaderFeature) =>
    b.affinity - a.affinity || (a.feature < b.feature ? -1 : 1);
  return {
    clickedMore: all
      .filter((feature) => feature.affinity > 1)
      .sort(byAffinity)
      .slice(0, count),
    clickedLess: all
      .filter((feature) => feature.affinity < 1)
      .sort((a, b) => byAffinity(b, a))
      .slice(0, count),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
