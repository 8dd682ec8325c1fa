// Diversity: greedy maximal marginal relevance. Each next pick maximises
//   score − DIVERSITY_PENALTY × (highest similarity to an item already in the edition),
// where similarity mixes topic-group overlap and keyword (TF-IDF cosine) overlap, so one theme cannot fill it.
import type { DocumentTerms } from './relevance.js';

export const DIVERSITY_PENALTY = 0.3;
/** Share of the similarity that comes from topic groups; the rest from keywords. */
const TOPIC_SHARE = 0.5;

export type SparseVector = Map<string, number>;

/** Keywords kept per document: the strongest ones carry the topic, and short vectors keep MMR fast. */
const KEYWORDS_PER_DOCUMENT = 40;

/**
 * L2-normalised TF-IDF keyword vector (unigrams only, the strongest KEYWORDS_PER_DOCUMENT) of each document, made
 * when first asked for: the diversity step compares the top of the ranking only (selectDiverse). The loops use
 * Map#forEach and indexes, not `for…of`, which allocates at every step in cold code (text-tokens.ts).
 */
export function keywordVectors(documents: DocumentTerms[]): (index: number) => SparseVector {
  const frequency = new Map<string, number>();
  for (let index = 0; index < documents.length; index++) {
    documents[index]?.counts.forEach((_, term) => {
      if (!term.includes('_')) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    });
  }
  const total = documents.length;
  const idf = new Map<string, number>();
  frequency.forEach((count, term) => {
    idf.set(term, Math.log((total + 1) / count));
  });
  const made = new Map<number, SparseVector>();
  return (index) => {
    let vector = made.get(index);
    if (!vector) {
      vector = keywordVector(documents[index]?.counts ?? new Map(), idf);
      made.set(index, vector);
    }
    return vector;
  };
}

function keywordVector(counts: Map<string, number>, idf: Map<string, number>): SparseVector {
  const terms: string[] = [];
  const weights: number[] = [];
  counts.forEach((count, term) => {
    const inverse = idf.get(term);
    if (inverse === undefined || inverse <= 0) return;
    terms.push(term);
    weights.push((count === 1 ? 1 : 1 + Math.log(count)) * inverse);
  });
  const order = terms.map((_, index) => index);
  order.sort(
    (a, b) =>
      (weights[b] as number) - (weights[a] as number) ||
      ((terms[a] as string) < (terms[b] as string) ? -1 : 1),
  );
  const kept = order.length > KEYWORDS_PER_DOCUMENT ? order.slice(0, KEYWORDS_PER_DOCUMENT) : order;
  let squares = 0;
  for (let index = 0; index < kept.length; index++)
    squares += (weights[kept[index] as number] as number) ** 2;
  const norm = Math.sqrt(squares) || 1;
  const vector: SparseVector = new Map();
  for (let index = 0; index < kept.length; index++) {
    const at = kept[index] as number;
    vector.set(terms[at] as string, (weights[at] as number) / norm);
  }
  return vector;
}

export function sparseCosine(a: SparseVector, b: SparseVector): number {
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let sum = 0;
  small.forEach((weight, term) => {
    sum += weight * (large.get(term) ?? 0);
  });
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

/** Activations below this are brushes, not themes: they are dropped from the topic vectors. */
const TOPIC_FLOOR = 0.3;

/**
 * Topic vectors for similarity: each group's activation above TOPIC_FLOOR. Deliberately not relative to the
 * week: when a theme dominates the week it must still count as the same theme for every paper that carries it.
 */
export function themeVectors(topics: number[][]): number[][] {
  return topics.map((vector) => vector.map((value) => Math.max(0, value - TOPIC_FLOOR)));
}

/** Title activation at or above which a topic group is a theme of the item (one clear title word is enough). */
const TITLE_THEME_ACTIVATION = 0.3;
/** Without a theme in the title, the strongest group of the whole text must reach this. */
const THEME_ACTIVATION = 0.5;

/**
 * The themes of an item, for the theme cap: the non-broad in-scope groups its title activates (an "agent
 * benchmark" is both agents and evaluation), else the strongest such group of its whole text, else none.
 */
export function themesOf(titleTopics: number[], topics: number[], groups: { broad: boolean }[]): number[] {
  const themes: number[] = [];
  groups.forEach((group, index) => {
    if (!group.broad && (titleTopics[index] ?? 0) >= TITLE_THEME_ACTIVATION) themes.push(index);
  });
  if (themes.length) return themes;
  let best = -1;
  let bestValue = THEME_ACTIVATION;
  groups.forEach((group, index) => {
    const value = topics[index] ?? 0;
    if (!group.broad && value >= bestValue) {
      best = index;
      bestValue = value;
    }
  });
  return best < 0 ? [] : [best];
}

export interface DiversityInput {
  /** The keyword vector of a candidate by index (keywordVectors). */
  keywords: (index: number) => SparseVector;
  topics: number[][];
}

export function similarity(input: DiversityInput, a: number, b: number): number {
  const topic = denseCosine(input.topics[a] ?? [], input.topics[b] ?? []);
  const keyword = sparseCosine(input.keywords(a), input.keywords(b));
  return TOPIC_SHARE * topic + (1 - TOPIC_SHARE) * keyword;
}

export interface MmrPick {
  index: number;
  penalty: number;
  value: number;
}

/**
 * Greedy MMR. `chosen` are indexes already in the edition (manual, pinned); `eligible` lets the caller apply
 * caps and `onPick` tells it what was taken. Lazy: candidates are visited best score first and the visit stops
 * once no remaining score can beat the best penalised value (a penalty only ever lowers a score), so similarity
 * is computed for the top of the list only. Ties go to the candidate met first (higher score, then lower index).
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
  const order = scores.map((_, index) => index).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const inEdition = [...chosen];
  const taken = new Set(chosen);
  const maxSimilarity = new Float64Array(scores.length);
  /** How many of `inEdition` each candidate's maxSimilarity already accounts for. */
  const accounted = new Int32Array(scores.length);
  const picks: MmrPick[] = [];
  while (picks.length < count) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const index of order) {
      const score = scores[index] ?? 0;
      if (score <= bestValue) break;
      if (taken.has(index) || !eligible(index)) continue;
      for (let at = accounted[index] ?? 0; at < inEdition.length; at++) {
        const value = similarity(input, index, inEdition[at] ?? 0);
        if (value > (maxSimilarity[index] ?? 0)) maxSimilarity[index] = value;
      }
      accounted[index] = inEdition.length;
      const value = score - DIVERSITY_PENALTY * (maxSimilarity[index] ?? 0);
      if (value > bestValue) {
        bestValue = value;
        best = index;
      }
    }
    if (best < 0) break;
    picks.push({ index: best, penalty: DIVERSITY_PENALTY * (maxSimilarity[best] ?? 0), value: bestValue });
    taken.add(best);
    inEdition.push(best);
    onPick?.(best);
  }
  return picks;
}
