// Taste that learns from the editor: tf-idf over title and abstract, and a class-balanced, L2-regularised logistic
// regression fitted on this installation's history (items of published editions and pins are positives; skips and
// candidates passed over are negatives). Pure: the history is read by taste-history.ts. With no history there is
// no model, and the audience profile alone ranks (see docs/selection.md, "Taste").
import { arrayWeights, fitLogistic, type LinearSpace, sigmoid } from './_logistic.js';
import { features, termCounts, tokenize } from './text-tokens.js';

export interface TasteExample {
  title: string;
  text: string;
  positive: boolean;
}

export interface TasteModel {
  idf: Map<string, number>;
  weights: Map<string, number>;
  bias: number;
  positives: number;
  negatives: number;
}

/** Characters of an item's text the model reads: an abstract whole, a post's lede. */
const TEXT_CHARS = 2_000;
/** A term must occur in this many training documents to get a weight (one-off words are noise). */
const MIN_DOCUMENT_FREQUENCY = 2;

type Vector = Map<string, number>;

/** What an embeddings model reads of an item: the same title and text the tf-idf model reads. */
export function tasteText(title: string, text: string): string {
  return `${title}\n\n${text.slice(0, TEXT_CHARS)}`;
}

function termsOf(title: string, text: string): Map<string, number> {
  const titleTerms = features(tokenize(title));
  const counts = termCounts(features(tokenize(text.slice(0, TEXT_CHARS))));
  // Title words count twice: the title says what the item is about.
  for (const term of titleTerms) counts.set(term, (counts.get(term) ?? 0) + 2);
  return counts;
}

function vectorise(counts: Map<string, number>, idf: Map<string, number>): Vector {
  const vector: Vector = new Map();
  let norm = 0;
  for (const [term, count] of counts) {
    const inverse = idf.get(term);
    if (inverse === undefined) continue;
    const weight = (1 + Math.log(count)) * inverse;
    vector.set(term, weight);
    norm += weight * weight;
  }
  const length = Math.sqrt(norm) || 1;
  for (const [term, weight] of vector) vector.set(term, weight / length);
  return vector;
}

function termDot(weights: Vector, vector: Vector): number {
  let sum = 0;
  for (const [term, value] of vector) sum += (weights.get(term) ?? 0) * value;
  return sum;
}

/** A term vector for fitting: positions in the vocabulary and their values (absent terms weigh 0). */
interface IndexedVector {
  indices: Int32Array;
  values: Float64Array;
}

/**
 * Sparse vectors over an indexed vocabulary, weights in a typed array: a step costs the vector's terms plus one pass
 * over the weights, with no map lookups (a history of 4,000 items fits in well under a second, not half a minute).
 */
function indexedSpace(size: number): LinearSpace<IndexedVector, Float64Array> {
  return {
    ...arrayWeights(size),
    dot(weights, { indices, values }) {
      let sum = 0;
      for (let index = 0; index < indices.length; index++) sum += weights[indices[index]!]! * values[index]!;
      return sum;
    },
    addScaled(into, { indices, values }, scale) {
      for (let index = 0; index < indices.length; index++) into[indices[index]!]! += scale * values[index]!;
    },
  };
}

function indexed(vector: Vector, positions: Map<string, number>): IndexedVector {
  const indices = new Int32Array(vector.size);
  const values = new Float64Array(vector.size);
  let at = 0;
  for (const [term, value] of vector) {
    indices[at] = positions.get(term)!;
    values[at++] = value;
  }
  return { indices, values };
}

/** Items passed over kept for fitting: at least this many, or this many per pick when the history is long. */
const MIN_NEGATIVES = 2_000;
const NEGATIVES_PER_PICK = 10;

/**
 * The history as the model learns from it: every pick, and the items passed over thinned to
 * max(MIN_NEGATIVES, NEGATIVES_PER_PICK × picks) by a hash of their text, so the same history always keeps the same
 * ones (a build and `digest list` rank alike) and half a year of 2,000-candidate weeks still fits in about a second.
 * Class weights already make the few picks count as much as the many passed over.
 */
export function boundedExamples<T extends TasteExample>(examples: readonly T[]): T[] {
  const picks = examples.filter((example) => example.positive).length;
  const keep = Math.max(MIN_NEGATIVES, NEGATIVES_PER_PICK * picks);
  if (examples.length - picks <= keep) return [...examples];
  const kept = new Set(
    examples
      .filter((example) => !example.positive)
      .map((example) => ({ example, rank: fnv1a(`${example.title}\n${example.text.slice(0, 200)}`) }))
      .sort((a, b) => a.rank - b.rank)
      .slice(0, keep)
      .map(({ example }) => example),
  );
  return examples.filter((example) => example.positive || kept.has(example));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The fitted model, or null when the history lacks positives or negatives (a new installation). */
export function fitTaste(examples: TasteExample[]): TasteModel | null {
  const positives = examples.filter((example) => example.positive).length;
  const negatives = examples.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const documents = examples.map((example) => termsOf(example.title, example.text));
  const frequency = new Map<string, number>();
  for (const doc of documents)
    for (const term of doc.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [term, count] of frequency) {
    if (count >= MIN_DOCUMENT_FREQUENCY) idf.set(term, Math.log((documents.length + 1) / (count + 1)) + 1);
  }
  const vocabulary = [...idf.keys()];
  const positions = new Map(vocabulary.map((term, index) => [term, index]));
  const fit = fitLogistic(
    indexedSpace(vocabulary.length),
    documents.map((doc) => indexed(vectorise(doc, idf), positions)),
    examples.map((example) => example.positive),
  );
  const weights: Vector = new Map();
  fit.weights.forEach((weight, index) => {
    if (weight !== 0) weights.set(vocabulary[index]!, weight);
  });
  return { idf, weights, bias: fit.bias, positives, negatives };
}

/** The probability that the editor would pick each item, by the model. */
export function tasteScores(model: TasteModel, items: { title: string; text: string }[]): number[] {
  return items.map((item) => {
    const vector = vectorise(termsOf(item.title, item.text), model.idf);
    return sigmoid(model.bias + termDot(model.weights, vector));
  });
}

/** Positives at which learned taste reaches its full share of relevance. */
export const TASTE_FULL_AT = 10;
/** The largest share of relevance learned taste takes; the audience profile keeps the rest. */
export const TASTE_MAX_SHARE = 0.5;

/** What selection needs from learned taste: how much history stands behind it, and a score per item. */
export interface TasteSignal {
  positives: number;
  /** Probability-like scores (0–1), index-aligned with `items`. */
  scores(items: { key: string; title: string; text: string }[]): number[];
}

export function tasteSignal(model: TasteModel): TasteSignal {
  return { positives: model.positives, scores: (items) => tasteScores(model, items) };
}

/** How much of relevance comes from learned taste: grows with the editor's history, 0 without one. */
export function tasteShare(model: Pick<TasteSignal, 'positives'> | undefined | null): number {
  if (!model) return 0;
  return TASTE_MAX_SHARE * Math.min(1, model.positives / TASTE_FULL_AT);
}

/** The terms that weigh most for (positive) and against (negative) a pick, for `digest taste`. */
export function topTerms(
  model: TasteModel,
  count = 15,
): { positive: [string, number][]; negative: [string, number][] } {
  const sorted = [...model.weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const round = ([term, weight]: [string, number]): [string, number] => [
    term.replace('_', ' '),
    Math.round(weight * 1000) / 1000,
  ];
  return {
    positive: sorted
      .filter(([, weight]) => weight > 0)
      .slice(0, count)
      .map(round),
    negative: sorted
      .filter(([, weight]) => weight < 0)
      .reverse()
      .slice(0, count)
      .map(round),
  };
}
