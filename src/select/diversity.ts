// Diversity: greedy maximal marginal relevance. Each next pick maximises
//   score − DIVERSITY_PENALTY × (highest similarity to an item already in the edition),
// where similarity mixes topic-group overlap and keyword (TF-IDF cosine) overlap, so one theme cannot fill it.
import type { DocumentTerms } from './relevance.js';

export const DIVERSITY_PENALTY = 0.3;
/** Share of the similarity that comes from topic groups; the rest from keywords. */
const TOPIC_SHARE = 0.5;

export type SparseVector = Map<string, number>;

/** L2-normalised TF-IDF keyword vector (unigrams only) of each document. */
export function keywordVectors(documents: DocumentTerms[]): SparseVector[] {
  const frequency = new Map<string, number>();
  for (const doc of documents) {
    for (const term of doc.counts.keys())
      if (!term.includes('_')) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const total = documents.length;
  return documents.map((doc) => {
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [term, count] of doc.counts) {
      if (term.includes('_')) continue;
      const weight = (1 + Math.log(count)) * Math.log((total + 1) / (frequency.get(term) ?? 1));
      if (weight <= 0) continue;
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, weight] of vector) vector.set(term, weight / norm);
    return vector;
  });
}

export function sparseCosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, weight] of small) sum += weight * (large.get(term) ?? 0);
  return sum;
}

export function denseCosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}

/**
 * Topic vectors relative to the week: each group's activation minus its mean over the candidates, floored at 0,
 * so groups every paper brushes (e.g. "language models") do not make everything look alike.
 */
export function distinctiveTopics(topics: number[][]): number[][] {
  const size = topics[0]?.length ?? 0;
  const mean = Array.from({ length: size }, (_, group) => {
    let sum = 0;
    for (const vector of topics) sum += vector[group] ?? 0;
    return sum / Math.max(1, topics.length);
  });
  return topics.map((vector) => vector.map((value, group) => Math.max(0, value - (mean[group] ?? 0))));
}

export interface DiversityInput {
  keywords: SparseVector[];
  topics: number[][];
}

export function similarity(input: DiversityInput, a: number, b: number): number {
  const topic = denseCosine(input.topics[a] ?? [], input.topics[b] ?? []);
  const keyword = sparseCosine(input.keywords[a] ?? new Map(), input.keywords[b] ?? new Map());
  return TOPIC_SHARE * topic + (1 - TOPIC_SHARE) * keyword;
}

export interface MmrPick {
  index: number;
  penalty: number;
  value: number;
}

/**
 * Greedy MMR. `chosen` are indexes already in the edition (manual, pinned); `eligible` lets the caller apply
 * caps and `onPick` tells it what was taken. Ties go to the lower index (callers order candidates by key).
 */
export function selectDiverse(
  scores: number[],
  input: DiversityInput,
  options: {
    count: number;
    chosen: number[];
    eligible?: (index: number) => boolean;
    onPick?: (index: number) => void;
  },
): MmrPick[] {
  const { count, chosen, eligible = () => true, onPick } = options;
  const maxSimilarity = scores.map(() => 0);
  const taken = new Set(chosen);
  const update = (pickedIndex: number) => {
    for (let index = 0; index < scores.length; index++) {
      if (taken.has(index)) continue;
      const value = similarity(input, index, pickedIndex);
      if (value > (maxSimilarity[index] ?? 0)) maxSimilarity[index] = value;
    }
  };
  for (const index of chosen) update(index);
  const picks: MmrPick[] = [];
  while (picks.length < count) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let index = 0; index < scores.length; index++) {
      if (taken.has(index) || !eligible(index)) continue;
      const value = (scores[index] ?? 0) - DIVERSITY_PENALTY * (maxSimilarity[index] ?? 0);
      if (value > bestValue) {
        bestValue = value;
        best = index;
      }
    }
    if (best < 0) break;
    picks.push({ index: best, penalty: DIVERSITY_PENALTY * (maxSimilarity[best] ?? 0), value: bestValue });
    taken.add(best);
    onPick?.(best);
    update(best);
  }
  return picks;
}
