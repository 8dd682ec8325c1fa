// The taste use case: what the ranking learned from the editor's history, and forgetting it.

import { resetTasteNow, type TasteReport, tasteReport } from '../select/taste-report.js';
import type { TasteDeps } from './ports.js';
import { tasteEmbedder } from './taste-embedder.js';

export type { TasteReport };

export interface TasteInput {
  week: string;
  /** Forget the history so far (published before now). */
  reset?: boolean;
}

export type TasteOutcome = { reset: string } | { report: TasteReport };

export async function taste(deps: TasteDeps, input: TasteInput): Promise<TasteOutcome> {
  if (input.reset) return { reset: await resetTasteNow(deps.store, deps.clock.now()) };
  const embedder = await tasteEmbedder(deps);
  return {
    report: await tasteReport(deps.store, input.week, { log: deps.log, ...(embedder ? { embedder } : {}) }),
  };
}
