// editions/ — what is done with a week's edition: build it (ingest, rank, write), list and steer the ranking
// (decide, add, taste), publish the site and its email files, evaluate models, and the weekly schedule.
// A build has one orchestrator: build.ts assembles the ports from the deps once, build-edition.ts runs the stages
// over them (selection.ts and edition-items.ts are what it ranks with and what it writes from).
// This file is the room's one face: other rooms, the composition root and the entry points import only it. Each use
// case loads its module when first called, so a command loads only what it runs.
import type { BuildInput, BuildOutcome } from './build.js';
import type { AddInput, DecideInput } from './decide.js';
import type { EvalInput, ModelEvaluation } from './eval.js';
import type { ListInput, ListResult } from './list.js';
import type {
  AddDeps,
  BuildDeps,
  DecideDeps,
  EmailDeps,
  EvalDeps,
  ListDeps,
  PaperDeps,
  PublishDeps,
  ScheduleDeps,
  TasteDeps,
} from './ports.js';
import type { EmailInput, EmailOutcome, PublishInput, PublishOutcome } from './publish.js';
import type { ScheduledEditionInput, ScheduledEditionOutcome } from './schedule.js';
import type { Scheduler, SchedulerOptions } from './scheduler.js';
import type { TasteInput, TasteOutcome } from './taste.js';

export type { BuildInput, BuildOutcome } from './build.js';
export type { AddInput, DecideInput } from './decide.js';
export type { EvalInput, ModelEvaluation } from './eval.js';
export type { ListInput, ListResult, PlannedItem } from './list.js';
export type { EmailInput, EmailOutcome, PublishInput, PublishOutcome } from './publish.js';
export type { ScheduledEditionInput, ScheduledEditionOutcome } from './schedule.js';
export type { Scheduler, SchedulerOptions } from './scheduler.js';
export { fillTheStore, storeStatus } from './store-hints.js';
export type { TasteInput, TasteOutcome, TasteReport } from './taste.js';

export async function build(deps: BuildDeps, input: BuildInput): Promise<BuildOutcome> {
  return (await import('./build.js')).build(deps, input);
}

export async function list(deps: ListDeps, input: ListInput): Promise<ListResult> {
  return (await import('./list.js')).list(deps, input);
}

export async function taste(deps: TasteDeps, input: TasteInput): Promise<TasteOutcome> {
  return (await import('./taste.js')).taste(deps, input);
}

export async function decide(deps: DecideDeps, input: DecideInput) {
  return (await import('./decide.js')).decide(deps, input);
}

export async function add(deps: AddDeps, input: AddInput) {
  return (await import('./decide.js')).add(deps, input);
}

export async function publish(deps: PublishDeps, input: PublishInput): Promise<PublishOutcome> {
  return (await import('./publish.js')).publish(deps, input);
}

export async function email(deps: EmailDeps, input: EmailInput): Promise<EmailOutcome> {
  return (await import('./publish.js')).email(deps, input);
}

export async function evaluate(deps: EvalDeps, input: EvalInput): Promise<ModelEvaluation[]> {
  return (await import('./eval.js')).evaluate(deps, input);
}

export async function runScheduledEdition(
  deps: ScheduleDeps,
  input: ScheduledEditionInput,
): Promise<ScheduledEditionOutcome> {
  return (await import('./schedule.js')).runScheduledEdition(deps, input);
}

export async function createScheduler(options: SchedulerOptions): Promise<Scheduler> {
  return (await import('./scheduler.js')).createScheduler(options);
}

/** The full text an earlier build stored for a paper (read offline: nothing is fetched). */
export async function readStoredPaper(deps: PaperDeps, arxivId: string) {
  const { paperReader, readPapers } = await import('./paper-reader.js');
  return readPapers(await paperReader(deps, { offline: true, enrich: false })([arxivId])).get(arxivId);
}
