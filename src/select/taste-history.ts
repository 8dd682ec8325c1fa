// The editor's history as taste examples, read from the store with its existing queries: for each published
// edition before the week, its items are positives and the week's other candidates negatives; pins are positives
// and skips negatives (for those weeks and for the week being built). `digest taste --reset` records a time in the
// cache; history published before it is ignored. With an embeddings model, taste is learned from the items'
// embeddings instead of tf-idf, and the week's candidates are embedded up front so that scoring stays synchronous.
import { editionWindow } from '../core/dates.js';
import type { Logger, StageStore } from '../core/ports.js';
import type { StoredItem } from '../core/types.js';
import { type Embedder, EmbeddingError } from '../llm/embeddings.js';
import { sigmoid } from './_logistic.js';
import {
  boundedExamples,
  fitTaste,
  type TasteExample,
  type TasteModel,
  type TasteSignal,
  tasteSignal,
  tasteText,
} from './taste.js';
import { type DenseTasteModel, denseTasteScores, fitDenseTaste } from './taste-dense.js';

export const TASTE_CACHE_NAMESPACE = 'taste';
const RESET_KEY = 'reset';
/** Published editions read, newest first: half a year of weekly editions is plenty to learn from. */
const MAX_EDITIONS = 26;

type TasteStore = Pick<StageStore, 'editions' | 'items' | 'decisions' | 'cache'>;

export interface TasteHistory {
  examples: TasteExample[];
  editions: number;
  pins: number;
  skips: number;
  resetAt: string | null;
}

export async function tasteResetAt(store: Pick<StageStore, 'cache'>): Promise<string | null> {
  const value = await store.cache.get<{ at?: unknown }>(TASTE_CACHE_NAMESPACE, RESET_KEY);
  return typeof value?.at === 'string' ? value.at : null;
}

/** Forgets what was learned so far: history published before `at` no longer counts. */
export async function resetTaste(store: Pick<StageStore, 'cache'>, at: string): Promise<void> {
  await store.cache.put({ namespace: TASTE_CACHE_NAMESPACE, key: RESET_KEY, value: { at } });
}

const example = (item: StoredItem, positive: boolean): TasteExample => ({
  title: item.title,
  text: item.text,
  positive,
});

export async function readTasteHistory(store: TasteStore, date: string): Promise<TasteHistory> {
  const resetAt = await tasteResetAt(store);
  const editions = (await store.editions.list())
    .filter((edition) => edition.publishedAt !== null && edition.date < date)
    .filter((edition) => resetAt === null || (edition.publishedAt ?? '') > resetAt)
    .slice(0, MAX_EDITIONS);
  const history: TasteHistory = { examples: [], editions: 0, pins: 0, skips: 0, resetAt };
  for (const summary of editions) {
    const edition = await store.editions.get(summary.date);
    if (!edition) continue;
    history.editions++;
    const picked = new Set(edition.items.map((item) => item.key));
    const candidates = await store.items.candidates(editionWindow(summary.date));
    const decisions = await store.decisions.get(summary.date);
    const seen = new Set<string>();
    for (const item of candidates) {
      seen.add(item.key);
      const decision = decisions.get(item.key);
      if (decision === 'pin') history.pins++;
      if (decision === 'skip') history.skips++;
      history.examples.push(
        example(item, decision !== 'skip' && (picked.has(item.key) || decision === 'pin')),
      );
    }
    // An edition item no candidate answers to (merged under another key): its title and summary stand in.
    for (const item of edition.items) {
      if (!seen.has(item.key))
        history.examples.push({ title: item.title, text: item.summary, positive: true });
    }
  }
  // This week's own pins and skips teach the ranking of the rest of this week.
  if (resetAt === null || resetAt < date) {
    const decisions = await store.decisions.get(date);
    if (decisions.size > 0) {
      for (const item of await store.items.candidates(editionWindow(date))) {
        const decision = decisions.get(item.key);
        if (!decision) continue;
        if (decision === 'pin') history.pins++;
        else history.skips++;
        history.examples.push(example(item, decision === 'pin'));
      }
    }
  }
  return history;
}

export interface LoadTasteOptions {
  /** The week's candidates: with embeddings they are embedded now, so that `signal.scores` needs no call. */
  candidates?: readonly { key: string; title: string; text: string }[];
  /** Learn from embeddings instead of tf-idf; when it fails, tf-idf with a warning. */
  embedder?: Embedder | null;
  log?: Pick<Logger, 'warn'>;
}

export interface LoadedTaste {
  /** "tf-idf" or "embeddings:<model id>"; null while the history cannot teach a model. */
  learnedWith: string | null;
  /** The tf-idf model, when taste was learned with tf-idf. */
  model: TasteModel | null;
  /** The embeddings model and the history titles it learned from with its score of each, when learned with embeddings. */
  dense: { model: DenseTasteModel; scoredTitles: { title: string; score: number }[] } | null;
  signal: TasteSignal | null;
  history: TasteHistory;
}

/** The installation's taste for the week `date`, or none when its history cannot teach one yet. */
export async function loadTaste(
  store: TasteStore,
  date: string,
  options: LoadTasteOptions = {},
): Promise<LoadedTaste> {
  const history = await readTasteHistory(store, date);
  const none: LoadedTaste = { learnedWith: null, model: null, dense: null, signal: null, history };
  const positives = history.examples.filter((example) => example.positive).length;
  if (positives === 0 || positives === history.examples.length) return none;
  const { embedder } = options;
  const examples = boundedExamples(history.examples);
  if (embedder) {
    try {
      return { ...none, ...(await embeddingTaste(examples, embedder, options.candidates ?? [])) };
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      options.log?.warn(
        `learned taste: embeddings model ${embedder.modelId} failed (${error.message}); using tf-idf this run`,
      );
    }
  }
  const model = fitTaste(examples);
  return model ? { ...none, learnedWith: 'tf-idf', model, signal: tasteSignal(model) } : none;
}

async function embeddingTaste(
  examples: TasteExample[],
  embedder: Embedder,
  candidates: NonNullable<LoadTasteOptions['candidates']>,
): Promise<Pick<LoadedTaste, 'learnedWith' | 'dense' | 'signal'>> {
  const vectors = await embedder.embed(
    [...examples, ...candidates].map((item) => tasteText(item.title, item.text)),
  );
  const history = vectors.slice(0, examples.length);
  const model = fitDenseTaste(
    history,
    examples.map((example) => example.positive),
  );
  if (!model) throw new EmbeddingError('no vectors to learn from');
  const scores = denseTasteScores(model, vectors.slice(examples.length));
  const byKey = new Map(candidates.map((candidate, index) => [candidate.key, scores[index] ?? 0]));
  // An item not embedded up front (none in a build) gets the model's prior rather than a call mid-plan.
  const prior = sigmoid(model.bias);
  return {
    learnedWith: `embeddings:${embedder.modelId}`,
    dense: {
      model,
      scoredTitles: denseTasteScores(model, history).map((score, index) => ({
        title: examples[index]!.title,
        score,
      })),
    },
    signal: {
      positives: model.positives,
      scores: (items) => items.map((item) => byKey.get(item.key) ?? prior),
    },
  };
}
