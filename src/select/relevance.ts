// Offline relevance: a BM25-style lexical match of each candidate against the audience profile.
// Per topic group the matches saturate, so breadth across the audience's concerns beats repeating one word.

import { DEFAULT_OFF_TOPICS, DEFAULT_TOPICS, type TopicGroup } from './default-topics.js';
import { type BigramIndex, bigramIndex, features, termCounts, tokenize } from './text-tokens.js';

/** Title words count this many times as often as body words (a BM25F-like field boost). */
const TITLE_BOOST = 3;
const BM25_K1 = 1.2;
const BM25_B = 0.5;
/** A group's summed match strength at which it reads as 63% present. */
const GROUP_SCALE = 1.5;

interface CompiledPhrase {
  /** Every feature must be present; the phrase counts min(tf) times. */
  features: string[];
}

export interface CompiledGroup {
  name: string;
  weight: number;
  broad: boolean;
  phrases: CompiledPhrase[];
}

export interface AudienceProfile {
  groups: CompiledGroup[];
  offGroups: CompiledGroup[];
  /** Every bigram a phrase needs: documents only keep these. */
  bigrams: BigramIndex;
}

export interface ProfileOptions {
  audience: string;
  topics: string[];
  offTopics?: string[] | undefined;
  /** Include the product defaults (DEFAULT_TOPICS, DEFAULT_OFF_TOPICS). Default true. */
  defaults?: boolean | undefined;
}

function compilePhrase(phrase: string): CompiledPhrase | null {
  const tokens = tokenize(phrase);
  if (tokens.length === 0) return null;
  if (tokens.length === 1) return { features: tokens };
  const bigrams: string[] = [];
  for (let index = 1; index < tokens.length; index++) bigrams.push(`${tokens[index - 1]}_${tokens[index]}`);
  return { features: bigrams };
}

function compileGroup(group: TopicGroup): CompiledGroup {
  const phrases = group.terms
    .map(compilePhrase)
    .filter((phrase): phrase is CompiledPhrase => phrase !== null);
  const unique = new Map(phrases.map((phrase) => [phrase.features.join(' '), phrase]));
  return {
    name: group.name,
    weight: group.weight,
    broad: group.broad ?? false,
    phrases: [...unique.values()],
  };
}

export function buildProfile(options: ProfileOptions): AudienceProfile {
  const useDefaults = options.defaults ?? true;
  const groups: TopicGroup[] = useDefaults ? [...DEFAULT_TOPICS] : [];
  const offGroups: TopicGroup[] = useDefaults ? [...DEFAULT_OFF_TOPICS] : [];
  if (options.audience.trim())
    groups.push({ name: 'audience', weight: 0.5, broad: true, terms: options.audience.split(/\s+/) });
  if (options.topics.length)
    groups.push({ name: 'configured', weight: 1.2, broad: true, terms: options.topics });
  if (options.offTopics?.length)
    offGroups.push({ name: 'configured-off', weight: 1, terms: options.offTopics });
  const compiled = groups.map(compileGroup).filter((group) => group.phrases.length > 0);
  const compiledOff = offGroups.map(compileGroup).filter((group) => group.phrases.length > 0);
  const bigrams = new Set<string>();
  for (const group of [...compiled, ...compiledOff]) {
    for (const phrase of group.phrases)
      for (const feature of phrase.features) if (feature.includes('_')) bigrams.add(feature);
  }
  return { groups: compiled, offGroups: compiledOff, bigrams: bigramIndex(bigrams) };
}

export interface DocumentTerms {
  counts: Map<string, number>;
  length: number;
}

/**
 * Characters of an item's text that relevance and keywords read: an abstract fits whole; of a long post, the
 * lede says what it is about, and reading 20,000 characters of it would only make long posts look broad.
 */
export const RELEVANCE_TEXT_CHARS = 2_000;

/** An item's terms and its title's alone (the theme cap reads title topics), the title read once. */
export function itemAndTitleTerms(
  title: string,
  text: string,
  bigrams?: BigramIndex,
): { item: DocumentTerms; title: DocumentTerms } {
  const titleFeatures = features(tokenize(title), bigrams);
  return { item: termsOf(titleFeatures, text, bigrams), title: termsOf(titleFeatures, '', bigrams) };
}

function termsOf(titleFeatures: string[], text: string, bigrams?: BigramIndex): DocumentTerms {
  const textFeatures = text ? features(tokenize(text.slice(0, RELEVANCE_TEXT_CHARS)), bigrams) : [];
  const counts = termCounts(textFeatures);
  for (let index = 0; index < titleFeatures.length; index++) {
    const feature = titleFeatures[index] as string;
    counts.set(feature, (counts.get(feature) ?? 0) + TITLE_BOOST);
  }
  return { counts, length: textFeatures.length + TITLE_BOOST * titleFeatures.length };
}

export interface RelevanceResult {
  /** Weighted sum of in-scope group activations. */
  positive: number;
  /** Weighted sum of out-of-scope group activations. */
  negative: number;
  /** Activation (0–1) of every group, in-scope then out-of-scope: the topic vector for diversity. */
  topics: number[];
}

function phraseCount(phrase: CompiledPhrase, counts: Map<string, number>): number {
  let min = Number.POSITIVE_INFINITY;
  const { features } = phrase;
  for (let index = 0; index < features.length && min > 0; index++)
    min = Math.min(min, counts.get(features[index] as string) ?? 0);
  return min;
}

/**
 * What a paper is mainly about counts most: the strongest group in full, the next ones with decaying weight
 * (1, 1/2, 1/4, …), so a long abstract that brushes every topic does not beat a focused one.
 */
function focusedSum(values: number[]): number {
  const sorted = [...values].sort((a, b) => b - a);
  let sum = 0;
  sorted.forEach((value, rank) => {
    sum += value / 2 ** rank;
  });
  return sum;
}

/** Scores every document against the profile. IDF comes from the candidates themselves. */
export function scoreRelevance(documents: DocumentTerms[], profile: AudienceProfile): RelevanceResult[] {
  const total = documents.length;
  const averageLength = documents.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, total) || 1;
  const allGroups = [...profile.groups, ...profile.offGroups];
  const phrases = allGroups.flatMap((group) => group.phrases);
  // Term frequency of every phrase in every document, computed once.
  const frequencies = documents.map((doc) => phrases.map((phrase) => phraseCount(phrase, doc.counts)));
  const maxIdf = Math.log(1 + (total + 1) / 0.5);
  const idf = phrases.map((_, index) => {
    let frequency = 0;
    for (let row = 0; row < frequencies.length; row++) if ((frequencies[row]?.[index] ?? 0) > 0) frequency++;
    // Common terms keep at least 40% of their weight: the profile chose them, the week only tempers them.
    return 0.4 + (0.6 * Math.log(1 + (total + 1) / (frequency + 0.5))) / maxIdf;
  });
  return documents.map((doc, docIndex) => {
    const row = frequencies[docIndex] ?? [];
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / averageLength);
    let offset = 0;
    const topics = allGroups.map((group) => {
      let sum = 0;
      for (let index = offset; index < offset + group.phrases.length; index++) {
        const tf = row[index] ?? 0;
        if (tf > 0) sum += ((idf[index] ?? 0) * tf * (BM25_K1 + 1)) / (tf + norm);
      }
      offset += group.phrases.length;
      return 1 - Math.exp(-sum / GROUP_SCALE);
    });
    const weighted = (from: number, to: number) =>
      allGroups.slice(from, to).map((group, index) => (topics[from + index] ?? 0) * group.weight);
    const positive = focusedSum(weighted(0, profile.groups.length));
    const negative = focusedSum(weighted(profile.groups.length, allGroups.length));
    return { positive, negative, topics };
  });
}
