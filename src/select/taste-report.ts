// What `digest taste` prints: the history the model learned from, what it learned with, and what weighs most —
// the terms for tf-idf; for embeddings, which have no terms, the history items it rates highest and lowest.
import type { StageStore } from '../core/ports.js';
import { tasteShare, topTerms } from './taste.js';
import {
  type LoadedTaste,
  type LoadTasteOptions,
  loadTaste,
  resetTaste,
  tasteResetAt,
} from './taste-history.js';
import { readableTerms } from './text-tokens.js';

export interface TasteReport {
  week: string;
  resetAt: string | null;
  editions: number;
  positives: number;
  negatives: number;
  pins: number;
  skips: number;
  /** Share of relevance learned taste takes this week (0 until the history can teach a model). */
  share: number;
  /** "tf-idf" or "embeddings:<model id>"; null while nothing is learned. */
  learnedWith: string | null;
  /** tf-idf: the terms that weigh most for and against a pick (empty for embeddings). */
  positiveTerms: [string, number][];
  negativeTerms: [string, number][];
  /** Embeddings: the history titles the model rates most and least likely to be picked (empty for tf-idf). */
  positiveTitles: string[];
  negativeTitles: string[];
}

type TasteStore = Parameters<typeof loadTaste>[0];

export async function tasteReport(
  store: TasteStore,
  week: string,
  options: LoadTasteOptions & { terms?: number; titles?: number } = {},
): Promise<TasteReport> {
  const taste = await loadTaste(store, week, options);
  const { model, history } = taste;
  const stems = model ? topTerms(model, options.terms ?? 15) : { positive: [], negative: [] };
  // The model's features are stems; people read the words of their own history that made them.
  const readable = readableTerms(
    [...stems.positive, ...stems.negative].map(([term]) => term),
    history.examples.map((example) => `${example.title} ${example.text}`),
  );
  const words = (list: [string, number][]): [string, number][] =>
    list.map(([term, weight]) => [readable.get(term) ?? term, weight]);
  const top = { positive: words(stems.positive), negative: words(stems.negative) };
  const titles = extremeTitles(taste.dense, options.titles ?? 8);
  const positives = history.examples.filter((example) => example.positive).length;
  return {
    week,
    resetAt: history.resetAt,
    editions: history.editions,
    positives,
    negatives: history.examples.length - positives,
    pins: history.pins,
    skips: history.skips,
    share: Math.round(tasteShare(taste.signal) * 1000) / 1000,
    learnedWith: taste.learnedWith,
    positiveTerms: top.positive,
    negativeTerms: top.negative,
    positiveTitles: titles.positive,
    negativeTitles: titles.negative,
  };
}

function extremeTitles(
  dense: LoadedTaste['dense'],
  count: number,
): { positive: string[]; negative: string[] } {
  if (!dense) return { positive: [], negative: [] };
  // Highest first; a title seen twice (a pin, then an edition item) keeps its place at its highest score.
  const ranked = [
    ...new Set([...dense.scoredTitles].sort((a, b) => b.score - a.score).map((entry) => entry.title)),
  ];
  const shown = Math.min(count, Math.floor(ranked.length / 2));
  return { positive: ranked.slice(0, shown), negative: ranked.slice(ranked.length - shown).reverse() };
}

export async function resetTasteNow(store: Pick<StageStore, 'cache'>, now: Date): Promise<string> {
  const at = now.toISOString();
  await resetTaste(store, at);
  return (await tasteResetAt(store)) ?? at;
}
