// editions/ — what is done with a week's edition: build it (ingest, rank, write), list and steer the ranking
// (decide, add, taste), publish the site and its email files, evaluate models, and the weekly schedule.
// A build has one orchestrator: build.ts assembles the ports from the deps once, build-edition.ts runs the stages
// over them (selection.ts and edition-items.ts are what it ranks with and what it writes from).
import { lazyModule } from '../core/lazy.js';
import type { PaperDeps } from './ports.js';

export type { BuildInput, BuildOutcome } from './build.js';
export type { CorrectInput, CorrectOutcome } from './correct.js';
export type { AddInput, DecideInput } from './decide.js';
export {
  frozenEdition,
  frozenMessage,
  type GuardStore,
} from './edition-guard.js';
export { fillTheStore, storeStatus } from './empty-store.js';
export type { EvalInput, ModelEvaluation } from './eval.js';
export type { ListInput, ListResult, PlannedItem } from './list.js';
/** The deps a LLM client is built from (triage, writing, checks, eval; the desk's regeneration too). */
export type { LlmDeps } from './ports.js';
export type { EmailInput, PublishInput, PublishOutcome } from './publish-and-email.js';
export type { EditionStats } from './reader-stats.js';
export type { ScheduledEditionInput, ScheduledEditionOutcome } from './schedule.js';
export type { Scheduler } from './scheduler.js';
export type { TasteInput, TasteReport } from './steer-taste.js';

export const { build } = lazyModule(() => import('./build.js'));

export const { list } = lazyModule(() => import('./list.js'));

export const { taste } = lazyModule(() => import('./steer-taste.js'));

// readerStats: What readers did with a published edition: clicks per item, mails and what followed, the trend.
export const { readerStats, clickTotals } = lazyModule(() => import('./reader-stats.js'));

export const { decide, add } = lazyModule(() => import('./decide.js'));

export const { correct, correctionDraft } = lazyModule(() => import('./correct.js'));

export const { publish, email } = lazyModule(() => import('./publish-and-email.js'));

export const { evaluate } = lazyModule(() => import('./eval.js'));

export const { runScheduledEdition, sendPublished } = lazyModule(() => import('./schedule.js'));

export const { createScheduler } = lazyModule(() => import('./scheduler.js'));

/** The current site generation written again from the store (another instance published it). */
export const { writePublishedSite } = lazyModule(() => import('./published-site.js'));

/** Loads what writePublishedSite runs ahead of its first call, so the first copy costs only its own work. */
export async function loadPublishedSite(): Promise<void> {
  await import('./published-site.js');
}

/** The full text an earlier build stored for a paper (read offline: nothing is fetched). */
export async function readStoredPaper(deps: PaperDeps, arxivId: string) {
  const { paperReader, readPapers } = await import('./paper-reader.js');
  return readPapers(await paperReader(deps, { offline: true, enrich: false })([arxivId])).get(arxivId);
}
