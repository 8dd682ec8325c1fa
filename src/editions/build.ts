// The build use case: every port of one build assembled once from the deps (one model road, triage, taste, the
// sources), the one orchestrator (build-edition.ts) run over them, then the edition's page and the closing report.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { editionWindow } from '../core/dates.js';
import { type Logger, silentLogger } from '../core/ports.js';
import type { Edition, SourceReport } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import type { ModelRoadOptions } from '../llm/model-road.js';
import { siteOptions } from '../publish/site-options.js';
import { writeEditionFiles } from '../publish/write-site.js';
import { createSource } from '../sources/index.js';
import {
  createModelRoad,
  createWriter,
  formatFlaggedItems,
  formatProgress,
  formatUsageTable,
  type ModelRoad,
  outcomeNotes,
  type UsageReport,
  type WriterSetup,
} from '../write/index.js';
import {
  type BuildPorts,
  type BuildProgress,
  type BuildResult,
  type BuildStages,
  buildEdition,
} from './build-edition.js';
import type { FullTextSummary } from './edition-items.js';
import { formatWaiting, ingest } from './ingest.js';
import { paperReader } from './paper-reader.js';
import { tasteEmbedder } from './taste-embedder.js';
import { translateLanguages } from './translate.js';
import { createTriage, type TriageReport } from './triage.js';

export interface BuildInput {
  week: string;
  /** Folder the edition's page is written to (checked by the entry point before any work). */
  outDir: string;
  ingest: boolean;
  enrich: boolean;
  offline: boolean;
  check: boolean;
  refresh: boolean;
  /** This build's overrides of the LLM road (the CLI's --model, --retry-failed, --max-cost). */
  llm?: BuildLlmInput;
}

export interface BuildLlmInput {
  model?: string;
  /** Ask again only the LLM calls whose cached answer failed validation. */
  retryFailed?: boolean;
  maxCost?: number;
}

export interface BuildOutcome {
  result: BuildResult;
  pagePath: string;
  /** True when an LLM was asked and some item fell back, failed its check, or a call failed. */
  degraded: boolean;
}

/** The build use case: the ports assembled once from the deps, the one orchestrator run over them, the page written. */
export async function build(deps: DigestDeps, input: BuildInput): Promise<BuildOutcome> {
  const { config, store, http, log, clock } = deps;
  const startedAt = clock.now().getTime();
  const assembled = await assembleBuild(deps, input);
  const result = await buildEdition({
    date: input.week,
    config,
    store,
    ports: assembled.ports,
    stages: assembled.stages,
    progress: assembled.progress,
    today: clock.now(),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const usage = assembled.usage();
  await writeEditionFiles(deps.fs, input.outDir, result.edition, await store.listEditions(), {
    ...siteOptions(config),
    // Item images are fetched (once, guarded) with the rest of the network enrichment; --no-enrich: no images.
    ...(assembled.enrich ? { fetchImages: { http, log } } : {}),
  });
  const degraded = isDegraded(usage);
  const seconds = ((clock.now().getTime() - startedAt) / 1000).toFixed(1);
  reportBuild(log, result, usage, { seconds, degraded });
  return { result, pagePath: resolve(input.outDir, input.week, 'index.html'), degraded };
}

interface AssembledBuild {
  ports: BuildPorts;
  stages: BuildStages;
  progress: BuildProgress;
  /** What the build's writing (and translating) cost so far, for the usage table. */
  usage: () => UsageReport;
  /** Network enrichment runs: item images are fetched with it. */
  enrich: boolean;
}

/** Every port and stage of one build, from the deps: one model road for every LLM call, triage, taste, sources. */
async function assembleBuild(deps: DigestDeps, input: BuildInput): Promise<AssembledBuild> {
  const { config, log } = deps;
  // One road for every LLM call of the build (triage, writing, checks, title/intro, translation); throws
  // ConfigError before any work when a configured model has no key.
  const road = createModelRoad(roadOptions(deps, input));
  const writerSetup = createWriter({ road });
  if (writerSetup.notice) log.info(writerSetup.notice);
  // Offline: the stages that would fetch are skipped up front (and any request is refused: see offline-http.ts).
  const enrich = input.enrich && config.enrich.enabled && !input.offline;
  const notice = input.offline ? offlineNotice(input, config) : null;
  if (notice) log.info(notice);
  const triage = chooseTriage(deps, input, road);
  // Offline, learned taste uses the vectors stored by earlier builds, and tf-idf (with a warning) for the rest.
  const maxCostUsd = input.llm?.maxCost ?? config.llm.maxCostUsd;
  const embedder = await tasteEmbedder(deps, {
    cacheOnly: input.offline,
    meter: road.meter,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
  });
  const ports: BuildPorts = {
    writer: writerSetup.writer,
    log,
    ...(embedder ? { tasteEmbedder: embedder } : {}),
    usage: () => editionUsage(writerSetup.usage(), triage?.spent() ?? null),
  };
  const stages: BuildStages = {
    ...sourceStages(deps, input, enrich),
    ...(triage ? { triage: async (items, policy) => (await triage.run(items, policy)).scores } : {}),
    ...(config.llm.fullText ? { readPapers: paperReader(deps, input) } : {}),
    translate: (edition) => translateLanguages(deps, edition, road),
  };
  const progress = buildProgress(log, writerSetup);
  return { ports, stages, progress, usage: writerSetup.usage, enrich };
}

function roadOptions(deps: DigestDeps, input: BuildInput): ModelRoadOptions {
  const { model, retryFailed = false, maxCost } = input.llm ?? {};
  return {
    llm: deps.config.llm,
    store: deps.store,
    log: deps.log,
    offline: input.offline,
    refresh: input.refresh,
    retryFailed,
    check: input.check,
    env: deps.env,
    ...(model ? { modelOverride: model } : {}),
    ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
}

/** Ingest (unless --no-ingest) and network enrichment (unless off): the stages that ask the network. */
function sourceStages(deps: DigestDeps, input: BuildInput, enrich: boolean): BuildStages {
  const { config, store, http, log } = deps;
  const signal = deps.signal ? { signal: deps.signal } : {};
  return {
    ...(input.ingest
      ? {
          ingest: () =>
            ingest({
              sources: config.sources,
              window: editionWindow(input.week),
              ports: { store, http, log, createSource },
              ...signal,
              progress: {
                onSourceDone: (report) => log.info(formatSourceLine(report)),
                onWaiting: (waiting) => log.info(formatWaiting(waiting)),
              },
            }),
        }
      : {}),
    ...(enrich
      ? {
          enrich: async (items) => {
            const { enrichItems } = await import('../enrich/index.js');
            return enrichItems(items, { http, store, log, env: deps.env, config: enrichConfig(config) });
          },
        }
      : {}),
  };
}

/** What the LLM calls of the build cost, saved with the edition; none when no model was asked or read from cache. */
function editionUsage(spent: UsageReport, triage: TriageReport | null): Edition['usage'] | undefined {
  if (spent.calls === 0 && spent.cacheHits === 0) return undefined;
  return triage ? { ...spent, triage } : spent;
}

/** Each stage as it starts; per-item progress is for model calls (the extractive writer takes milliseconds). */
function buildProgress(log: Logger, { writer, road }: WriterSetup): BuildProgress {
  return {
    onStage: (stage, detail) => log.info(`› ${STAGE_LABELS[stage]} ${detail}`),
    ...(writer.name === 'extractive'
      ? {}
      : {
          onItemWritten: (done: number, total: number) =>
            log.info(`  written ${done}/${total}${formatProgress(road.progress())}`),
        }),
  };
}

/** The build's closing lines: usage, reading, flagged items, warnings, what was built and by which writers. */
function reportBuild(
  log: Logger,
  result: BuildResult,
  usage: UsageReport,
  { seconds, degraded }: { seconds: string; degraded: boolean },
): void {
  if (usage.calls > 0 || usage.cacheHits > 0) log.info(formatUsageTable(usage));
  const reading = formatFullText(result.fullText);
  if (reading) log.info(reading);
  const flagged = formatFlaggedItems(result.edition.items);
  if (flagged) log.info(`\n${flagged}`);
  if (result.warnings.length) {
    log.info(`\n${result.warnings.length} warning(s):`);
    for (const warning of result.warnings) log.info(`  - ${warning}`);
  }
  log.info(
    `\nBuilt "${result.edition.title}" — ${result.edition.items.length} items, ${seconds} s, writer: ${result.edition.writer}`,
  );
  const writers = itemsByWriter(result.edition.items);
  if (writers) log.info(`Items written by: ${writers}`);
  if (degraded) {
    log.info(
      `Some of the edition was not written as asked: ${outcomeNotes(usage).join('; ')}. ` +
        'See edition.json (writer, checks) for each item.',
    );
  }
}

/**
 * LLM triage on the build's road; offline, the answers the last online build got (a cache-only road, as `list`),
 * so the ranking is the same. A miss is no warning there: that week was not triaged online, and offline relevance
 * stands in, as it did.
 */
function chooseTriage(deps: DigestDeps, input: BuildInput, road: ModelRoad) {
  if (!input.offline) return createTriage(deps, input.week, road);
  if (!deps.config.llm.write) return null;
  const { config, store, env } = deps;
  const cached = createModelRoad({ llm: config.llm, store, log: silentLogger, env, cacheOnly: true });
  return createTriage(deps, input.week, cached, { quiet: true });
}

/** One line: what an offline build did not do that it would have done online; null when nothing. */
function offlineNotice(input: BuildInput, config: Config): string | null {
  const skipped = [
    ...(input.ingest ? [] : ['asking the sources (stored items are used)']),
    // Item images are fetched with the rest of the network enrichment.
    ...(input.enrich && config.enrich.enabled
      ? ['enrichment (arXiv, Semantic Scholar, pages)', 'item images']
      : []),
  ];
  const last = skipped.pop();
  if (!last) return null;
  return `Offline: skipped ${skipped.length ? `${skipped.join(', ')} and ` : ''}${last}.`;
}

/** "Papers: 2 of 3 read in full; their source text ≈ 5,800 tokens (their abstracts alone ≈ 420)". */
export function formatFullText(summary: FullTextSummary): string | null {
  if (summary.papers === 0) return null;
  const count = (value: number) => value.toLocaleString('en-US');
  const cost =
    summary.read > 0
      ? `; their source text ≈ ${count(summary.sourceTokens.fullText)} tokens (their abstracts alone ≈ ${count(summary.sourceTokens.abstract)})`
      : '';
  const why = Object.entries(summary.abstractOnly)
    .map(([reason, papers]) => `\n  ${papers} from the abstract: ${reason}`)
    .join('');
  return `Papers: ${summary.read} of ${summary.papers} read in full${cost}${why}`;
}

function isDegraded(usage: UsageReport): boolean {
  return (
    usage.fallbackItems > 0 ||
    usage.flaggedItems > 0 ||
    usage.checkFailedItems > 0 ||
    usage.failedCalls > 0 ||
    usage.budgetExhausted
  );
}

/** "openai:gpt-4.1-mini ×8, ollama:qwen3:8b ×3, extractive ×1" when more than one writer wrote the items, else null. */
function itemsByWriter(items: { writer: string }[]): string | null {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.writer, (counts.get(item.writer) ?? 0) + 1);
  if (counts.size < 2) return null;
  return [...counts].map(([writer, count]) => `${writer} ×${count}`).join(', ');
}

const STAGE_LABELS = {
  ingest: 'Ingesting sources for',
  enrich: 'Enriching',
  select: 'Selecting from',
  write: 'Writing',
  save: 'Saving edition',
} as const;

function formatSourceLine(report: SourceReport): string {
  const mark = report.status === 'ok' ? '✓' : '✗';
  const warnings = report.warnings?.length ? ` (${report.warnings.length} warning(s))` : '';
  const error = report.error ? ` — ${report.error}` : '';
  if (report.notModified)
    return `  ${mark} ${report.id}: not modified since the last run (its items are stored)`;
  return `  ${mark} ${report.id}: ${report.items} item(s)${warnings}${error}`;
}

function enrichConfig(config: Config) {
  const { arxivApiUrl, semanticScholarUrl, refreshAgeHours } = config.enrich;
  return { arxivApiUrl, semanticScholarUrl, refreshAgeHours };
}
