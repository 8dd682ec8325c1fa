// The one build orchestrator: the path an edition takes — ingest → enrich → select (pure plan) → read → write →
// save → translate — each stage a function over the ports it is given. The build use case (build.ts) assembles
// those ports from the deps once; tests and benchmarks hand in their own. Stages left out (`--no-ingest`,
// `--no-enrich`, no model) are simply not given.
import type { Config } from '../config/config-schema.js';
import { systemClock } from '../core/clock.js';
import { editionWindow } from '../core/dates.js';
import { BuildError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { DateWindow, Edition, SourceReport, StoredItem } from '../core/types.js';
import type { Embedder } from '../llm/embeddings.js';
import { planEdition } from '../select/plan-edition.js';
import type { EditionPlan, SelectionPolicy } from '../select/types.js';
import type { Writer } from '../write/types.js';
import {
  editionItem,
  type FullTextSummary,
  type PicksReading,
  type ReadPapers,
  readPicks,
  summariseReading,
  writingInputs,
} from './edition-items.js';
import { editorOrder, type PolicyStore, selectionPolicy, weekCandidates } from './selection.js';

/** What every build writes and reads with. */
export interface BuildPorts {
  writer: Writer;
  log: Logger;
  /** The embeddings model learned taste reads items with (`llm.embed`); tf-idf without one, or when it fails. */
  tasteEmbedder?: Embedder;
  /** What the LLM calls of this build cost, read once writing is done; saved with the edition. */
  usage?: () => Edition['usage'] | undefined;
}

/** The stages a build may run beside selecting and writing; each one left out is skipped. */
export interface BuildStages {
  /** Runs ingest and returns one report per source; omitted with --no-ingest. */
  ingest?: () => Promise<SourceReport[]>;
  /** Enriches candidates (arXiv, citations, page text); failures are warnings. */
  enrich?: (items: StoredItem[]) => Promise<{ items: StoredItem[]; warnings: string[] }>;
  /** LLM triage scores (0–10) by item key, when a model is configured; given the offline policy. */
  triage?: (items: StoredItem[], policy: SelectionPolicy) => Promise<Map<string, number>>;
  /** Reads the picked papers in full; omitted when `llm.fullText` is false: every paper is written from its abstract. */
  readPapers?: ReadPapers;
  /** Translates the saved edition into the other configured languages (stored beside it); returns warnings. */
  translate?: (edition: Edition) => Promise<string[]>;
}

export type BuildStage = 'ingest' | 'enrich' | 'select' | 'write' | 'save';

export interface BuildProgress {
  onStage?: (stage: BuildStage, detail: string) => void;
  onItemWritten?: (done: number, total: number, key: string) => void;
}

export interface BuildEditionOptions {
  /** The edition's date (a Monday). */
  date: string;
  config: Config;
  /** The policy's groups; the desk's week settings (count, order) and editor's versions of texts apply to every build. */
  store: PolicyStore;
  ports: BuildPorts;
  stages?: BuildStages;
  progress?: BuildProgress;
  /** Today, from the caller's clock (a future week is explained, not just reported empty). */
  today?: Date;
  /** Checked between stages: an aborted build stops before the next stage and saves nothing. */
  signal?: AbortSignal;
}

export interface BuildResult {
  edition: Edition;
  plan: EditionPlan;
  warnings: string[];
  /** What reading papers in full cost in source text: the usage table prints it beside the tokens. */
  fullText: FullTextSummary;
}

/** One build in flight: its options, the week's window and the warnings gathered so far. */
interface Run extends BuildEditionOptions {
  window: DateWindow;
  stages: BuildStages;
  warnings: string[];
}

export async function buildEdition(options: BuildEditionOptions): Promise<BuildResult> {
  const run: Run = {
    ...options,
    stages: options.stages ?? {},
    window: editionWindow(options.date),
    warnings: [],
  };
  const reports = await ingestStage(run);
  options.signal?.throwIfAborted();
  const candidates = await candidatesStage(run);
  options.signal?.throwIfAborted();
  const plan = await selectStage(run, candidates);
  options.signal?.throwIfAborted();
  const written = await writeStage(run, plan);
  const edition = await saveStage(run, { ...written, reports });
  if (run.stages.translate) run.warnings.push(...(await run.stages.translate(edition)));
  return { edition, plan, warnings: run.warnings, fullText: written.fullText };
}

async function ingestStage(run: Run): Promise<SourceReport[]> {
  if (!run.stages.ingest) return [];
  run.progress?.onStage?.('ingest', `${run.window.start} … ${run.window.end}`);
  const reports = await run.stages.ingest();
  for (const report of reports) {
    if (report.error) run.warnings.push(`${report.id}: ${report.error}`);
    for (const warning of report.warnings ?? []) run.warnings.push(`${report.id}: ${warning}`);
  }
  if (reports.length > 0 && reports.every((report) => report.status === 'error')) {
    throw new BuildError(
      `Every source failed, so there is nothing new to build from:\n${reports
        .map((report) => `  - ${report.id}: ${report.error}`)
        .join(
          '\n',
        )}\nCheck the network and the source URLs in your config, or build from what is stored with --no-ingest.`,
    );
  }
  return reports;
}

/** The week's stored candidates, enriched when that stage is given; none is an error that says what to do. */
async function candidatesStage(run: Run): Promise<StoredItem[]> {
  const { window, date } = run;
  const candidates = await weekCandidates(run.store, window);
  if (candidates.length === 0) {
    const future = window.start > (run.today ?? systemClock.now()).toISOString().slice(0, 10);
    throw new BuildError(
      future
        ? `No candidates for the week ${window.start} … ${window.end}: that week has not begun yet. Leave out --week to build the most recent Monday.`
        : `No candidates for the week ${window.start} … ${window.end}. Ingest sources for that week (./digest build --week ${date}) or add items with "./digest add".`,
    );
  }
  if (!run.stages.enrich) return candidates;
  run.progress?.onStage?.('enrich', `${candidates.length} candidates`);
  const enriched = await run.stages.enrich(candidates);
  run.warnings.push(...enriched.warnings);
  return enriched.items;
}

/** The policy (with triage when given), the pure plan, then the editor's order from the desk. */
async function selectStage(run: Run, candidates: StoredItem[]): Promise<EditionPlan> {
  const { config, store, date, ports } = run;
  run.progress?.onStage?.('select', `${candidates.length} candidates`);
  const policy = await selectionPolicy(
    { config, store, date },
    {
      candidates,
      log: ports.log,
      ...(ports.tasteEmbedder ? { embedder: ports.tasteEmbedder } : {}),
    },
  );
  if (run.stages.triage) policy.relevance = await run.stages.triage(candidates, policy);
  const plan = planEdition(candidates, policy, date);
  const order = (await store.desk.week(date))?.order;
  if (order?.length) plan.picks = editorOrder(plan.picks, order);
  if (plan.picks.length === 0) {
    throw new BuildError(`Nothing left to pick for ${date}: every candidate was excluded or skipped.`);
  }
  return plan;
}

interface WrittenPicks {
  plan: EditionPlan;
  reading: PicksReading;
  header: Awaited<ReturnType<Writer['writeEdition']>>;
  items: Awaited<ReturnType<Writer['writeItems']>>;
  fullText: FullTextSummary;
}

/** The picks read (in full where they can be), each written, then the edition's title and intro. */
async function writeStage(run: Run, plan: EditionPlan): Promise<WrittenPicks> {
  const { config, ports, progress } = run;
  const reading = await readPicks(plan.picks, run.stages.readPapers);
  run.warnings.push(...reading.warnings);
  progress?.onStage?.('write', `${plan.picks.length} items with the ${ports.writer.name} writer`);
  const inputs = writingInputs(plan.picks, reading, config.llm.maxInputTokens);
  const context = { name: config.name, audience: config.audience, log: ports.log };
  const items = await ports.writer.writeItems(inputs, {
    ...context,
    ...(progress?.onItemWritten ? { onItemWritten: progress.onItemWritten } : {}),
  });
  const header = await ports.writer.writeEdition(
    inputs.map((input, index) => ({ ...input, ...items[index]! })),
    context,
  );
  return { plan, reading, header, items, fullText: summariseReading(inputs, reading) };
}

/** The edition assembled and saved; an editor's version of a field (the desk) stays in place. */
async function saveStage(run: Run, written: WrittenPicks & { reports: SourceReport[] }): Promise<Edition> {
  const { config, date } = run;
  const { plan, reading, header, items } = written;
  const edition: Edition = {
    date,
    name: config.name,
    title: header.title,
    intro: header.intro,
    writer: header.writer,
    items: plan.picks.map((pick, index) =>
      editionItem({ pick, written: items[index]!, sources: config.sources, reading }),
    ),
    sources: written.reports,
  };
  const usage = run.ports.usage?.();
  if (usage !== undefined) edition.usage = usage;
  run.signal?.throwIfAborted();
  run.progress?.onStage?.('save', date);
  // What was just written is the generated version: the editor's edits are laid over it before it is saved.
  const kept = await run.store.desk.keepEditorEdits(edition);
  await run.store.editions.save(kept);
  return kept;
}
