// What `digest taste` prints: the history the model learned from and the terms it weighs most.
import type { CachePort } from '../store/types.js';
import { tasteShare, topTerms } from './taste.js';
import { loadTaste, resetTaste, tasteResetAt } from './taste-history.js';

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
  positiveTerms: [string, number][];
  negativeTerms: [string, number][];
}

type TasteStore = Parameters<typeof loadTaste>[0];

export async function tasteReport(store: TasteStore, week: string, terms = 15): Promise<TasteReport> {
  const { model, history } = await loadTaste(store, week);
  const top = model ? topTerms(model, terms) : { positive: [], negative: [] };
  const positives = history.examples.filter((example) => example.positive).length;
  return {
    week,
    resetAt: history.resetAt,
    editions: history.editions,
    positives,
    negatives: history.examples.length - positives,
    pins: history.pins,
    skips: history.skips,
    share: Math.round(tasteShare(model) * 1000) / 1000,
    positiveTerms: top.positive,
    negativeTerms: top.negative,
  };
}

export async function resetTasteNow(store: CachePort, now: Date): Promise<string> {
  const at = now.toISOString();
  await resetTaste(store, at);
  return (await tasteResetAt(store)) ?? at;
}
