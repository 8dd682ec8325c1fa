// The taste use case: what the ranking learned from the editor's history and from what readers clicked, and
// forgetting the editor's history.

import { type ReaderFeature, readerLessons } from '../select/reader-taste.js';
import { type TasteReport as EditorTasteReport, resetTasteNow, tasteReport } from '../select/taste-report.js';
import type { TasteDeps } from './ports.js';
import { loadReaderTaste } from './reader-history.js';
import { tasteEmbedder } from './taste-embedder.js';

/** What readers taught the ranking: the features they clicked more and less than the rest of their editions. */
export interface ReaderTasteReport {
  /** selection.readerWeight: at most this many points up or down an item's score. */
  weight: number;
  /** Editions with enough clicks to learn from, and their clicks. */
  editions: number;
  clicks: number;
  clickedMore: ReaderFeature[];
  clickedLess: ReaderFeature[];
}

export type TasteReport = EditorTasteReport & {
  /** Null while no edition has enough clicks (or readerWeight is 0). */
  readers: ReaderTasteReport | null;
};

export interface TasteInput {
  week: string;
  /** Forget the history so far (published before now). */
  reset?: boolean;
}

export type TasteOutcome = { reset: string } | { report: TasteReport };

export async function taste(deps: TasteDeps, input: TasteInput): Promise<TasteOutcome> {
  if (input.reset) return { reset: await resetTasteNow(deps.store, deps.clock.now()) };
  const embedder = await tasteEmbedder(deps);
  const report = await tasteReport(deps.store, input.week, {
    log: deps.log,
    ...(embedder ? { embedder } : {}),
  });
  return { report: { ...report, readers: await readerReport(deps, input.week) } };
}

async function readerReport(deps: TasteDeps, week: string): Promise<ReaderTasteReport | null> {
  const weight = deps.config.selection.readerWeight;
  const readers = weight > 0 ? await loadReaderTaste(deps.store, week) : null;
  if (!readers) return null;
  return { weight, editions: readers.editions, clicks: readers.clicks, ...readerLessons(readers) };
}
