// The score: a documented linear sum of normalised signals (each 0–1) and penalties (0 or 1).
// docs/selection.md explains every term; `digest list` and edition.json show them per item.
import type { DateWindow, StoredItem } from '../core/types.js';
import { readerScores } from './reader-taste.js';
import type { RelevanceResult } from './relevance.js';
import { tasteShare } from './taste.js';
import type { SelectionPolicy } from './types.js';

export const SCORE_WEIGHTS = {
  /** Match to the audience profile, blended with learned taste (offline) and with LLM triage when present. */
  relevance: 0.5,
  /** HF upvotes, log-scaled, relative to the week's best. */
  upvotes: 0.1,
  /** Citation count, log-scaled (0 is a real value; unknown counts as 0). */
  citations: 0.05,
  /** Configured source weight relative to the heaviest source among the candidates. */
  source: 0.1,
  /** Position of the publication day in the window: 0 on its first day, 1 on the edition date. */
  recency: 0.05,
  /** Penalty: no audience topic clearly present, or out-of-scope topics dominate (or triage < 3). */
  offTopic: -0.2,
  /** Penalty: text shorter than TOO_SHORT_CHARS, too thin to summarise. */
  tooShort: -0.1,
  /** Penalty: no text at all. */
  noText: -0.2,
} as const;

/** With triage, relevance = TRIAGE_SHARE × triage/10 + (1 − TRIAGE_SHARE) × offline relevance. */
export const TRIAGE_SHARE = 0.65;
export const TOO_SHORT_CHARS = 200;
/** Citations at which the citation signal saturates at 1 when the week's best has fewer. */
const CITATION_FLOOR = 20;
/** Strongest in-scope topic activation below which an item reads as off-topic offline. */
const ON_TOPIC_ACTIVATION = 0.35;
/** How much out-of-scope evidence subtracts from in-scope evidence. */
const OFF_TOPIC_FACTOR = 1;

export interface ScoredCandidate {
  score: number;
  signals: Record<string, number>;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function dayIndex(day: string): number {
  return Math.floor(Date.parse(`${day.slice(0, 10)}T00:00:00Z`) / 86_400_000);
}

function sourceWeight(item: StoredItem, weights: Record<string, number>): number {
  const ids = new Set([item.primarySource, ...item.sources.map((ref) => ref.sourceId)]);
  return Math.max(...[...ids].map((id) => weights[id] ?? 1));
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
/** 0–1, and 0 for what cannot be computed (an unreadable date). */
const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

export function scoreCandidates({
  items,
  relevance,
  profileSize,
  policy,
  window,
}: {
  items: StoredItem[];
  relevance: RelevanceResult[];
  profileSize: number;
  policy: SelectionPolicy;
  window: DateWindow;
}): ScoredCandidate[] {
  const maxUpvotes = Math.max(0, ...items.map((item) => item.upvotes ?? 0));
  const upvoteSignal = (votes: number) => (maxUpvotes > 0 ? Math.log1p(votes) / Math.log1p(maxUpvotes) : 0);
  // Unknown popularity (posts carry no votes) reads as the week's median, neither rewarded nor punished.
  const neutralUpvotes = median(
    items.filter((item) => item.upvotes !== null).map((item) => upvoteSignal(item.upvotes ?? 0)),
  );
  const maxCitations = Math.max(CITATION_FLOOR, ...items.map((item) => item.citations ?? 0));
  const maxSource = Math.max(...items.map((item) => sourceWeight(item, policy.sourceWeights)), 0) || 1;
  const nets = relevance.map((result) => Math.max(0, result.positive - OFF_TOPIC_FACTOR * result.negative));
  const maxNet = Math.max(...nets, 1e-9);
  // Learned taste, scaled to the week's most likely pick like lexical relevance is to the week's best match.
  const share = tasteShare(policy.taste);
  const tastes = policy.taste && share > 0 ? policy.taste.scores(items) : [];
  const maxTaste = Math.max(...tastes, 1e-9);
  const readers = policy.readers && policy.readers.weight > 0 ? policy.readers : null;
  const readerValues = readers ? readerScores(readers.taste, items) : [];
  const start = dayIndex(window.start);
  const span = Math.max(1, dayIndex(window.end) - start);

  return items.map((item, index) => {
    const result = relevance[index] ?? { positive: 0, negative: 0, topics: [] };
    const profileMatch = (nets[index] ?? 0) / maxNet;
    const taste = tastes.length ? (tastes[index] ?? 0) / maxTaste : null;
    const lexical = taste === null ? profileMatch : (1 - share) * profileMatch + share * taste;
    const triageRaw = policy.relevance?.get(item.key);
    const triage = triageRaw === undefined ? null : Math.min(10, Math.max(0, triageRaw)) / 10;
    const strongest = Math.max(0, ...result.topics.slice(0, profileSize));
    const offTopic =
      triage !== null ? triage < 0.3 : strongest < ON_TOPIC_ACTIVATION || result.negative > result.positive;
    const text = item.text.trim();
    const signals: Record<string, number> = {
      relevance: triage === null ? lexical : TRIAGE_SHARE * triage + (1 - TRIAGE_SHARE) * lexical,
      upvotes: item.upvotes === null ? neutralUpvotes : upvoteSignal(item.upvotes),
      citations: Math.log1p(item.citations ?? 0) / Math.log1p(maxCitations),
      source: sourceWeight(item, policy.sourceWeights) / maxSource,
      recency: clamp01((dayIndex(item.publishedAt) - start) / span),
      offTopic: offTopic ? 1 : 0,
      tooShort: text.length > 0 && text.length < TOO_SHORT_CHARS ? 1 : 0,
      noText: text.length === 0 ? 1 : 0,
    };
    let score = 0;
    const recorded: Record<string, number> = { lexicalRelevance: round(lexical) };
    if (taste !== null) {
      recorded.profileRelevance = round(profileMatch);
      recorded.taste = round(taste);
      recorded.tasteShare = round(share);
    }
    if (triage !== null) recorded.triage = round(triage * 10);
    for (const [name, weight] of Object.entries(SCORE_WEIGHTS)) {
      const value = Number.isFinite(signals[name]) ? (signals[name] ?? 0) : 0;
      score += weight * value;
      recorded[name] = round(value);
      recorded[`${name}Points`] = round(weight * value);
    }
    if (readers) {
      // 0.5 is neutral: what readers clicked more lifts an item by up to the weight, what they clicked less lowers it.
      const value = readerValues[index] ?? 0.5;
      recorded.readers = value;
      recorded.readersPoints = round(readers.weight * (2 * value - 1));
      score += readers.weight * (2 * value - 1);
    }
    return { score: round(score), signals: recorded };
  });
}
