// A build anew: every port of one build assembled once from the deps (one LLM client, triage, taste, the sources),
// the one orchestrator (build-edition.ts) run over them, then the closing report. Loaded by
// build.ts only when the week's inputs changed (or the run asks for new text).
import type { Config } from '../config/config-schema.js';
import { systemTimer } from '../core/clock.js';
import { editionWindow } from '../core/dates.js';
import type { Logger } from '../core/ports.js';
import { silentLogger } from '../core/ports.js';
import type { Edition, SourceReport } from '../core/types.js';
import type { LlmClient, LlmClientOptions } from '../llm/client-types.js';
import { openLlmClient } from '../llm/open-client.js';
import type { UsageReport } from '../llm/usage.js';
import { formatFlaggedItems, formatProgress, formatUsageTable, outcomeNotes } from '../write/format-usage.js';
import type { WriterSetup } from '../write/writer-setup.js';
import { openWriter } from '../write/writer-setup.js';
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
import type { BuildDeps, BuildInput, LlmDeps, SourceStageDeps, TriageDeps } from './ports.js';
import { createTriage, type TriageReport } from './shared-triage.js';
import { tasteEmbedder } from './taste-embedder.js';
import { translateLanguages } from './translate-edition.js';

/** Runs every stage of the week's build and reports it; build.ts then writes its page and records its inputs. */
export async function buildAnew(
  deps: BuildDeps,
  input: BuildInput,
  startedAt: number,
): Promise<{ result: BuildResult; degraded: boolean; enriched: boolean }> {
  const { config, store, log, clock } = deps;
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
  const degraded = isDegraded(usage);
  const seconds = ((clock.now().getTime() - startedAt) / 1000).toFixed(1);
  reportBuild({ log, result, usage, seconds, degraded });
  return { result, degraded, enriched: assembled.enrich };
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

/** Every port and stage of one build, from the deps: one LLM client for every LLM call, triage, taste, sources. */
async function assembleBuild(deps: BuildDeps, input: BuildInput): Promise<AssembledBuild> {
  const { config, log } = deps;
  // One LLM client for every LLM call of the build (triage, writing, checks, title/intro, translation); throws
  // ConfigError before any work when a configured model has no key.
  const llmClient = await openLlmClient(llmClientOptions(deps, input));
  const writerSetup = await openWriter(llmClient);
  if (writerSetup.notice) log.info(writerSetup.notice);
  // Offline: the stages that would fetch are skipped up front (and any request is refused: see offline-http.ts).
  const enrich = input.enrich && config.enrich.enabled && !input.offline;
  const notice = input.offline ? offlineNotice(input, config) : null;
  if (notice) log.info(notice);
  const triage = await chooseTriage(deps, input, llmClient);
  // Offline, learned taste uses the vectors stored by earlier builds, and tf-idf (with a warning) for the rest.
  const maxCostUsd = input.llm?.maxCost ?? config.llm.maxCostUsd;
  const embedder = await tasteEmbedder(deps, {
    cacheOnly: input.offline,
    budget: { meter: llmClient.meter, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) },
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
    translate: (edition) => translateLanguages(deps, edition, llmClient),
  };
  const progress = buildProgress(log, writerSetup);
  return { ports, stages, progress, usage: writerSetup.usage, enrich };
}

function llmClientOptions(deps: LlmDeps, input: BuildInput): LlmClientOptions {
  const { model, retryFailed = false, maxCost } = input.llm ?? {};
  return {
    llm: deps.config.llm,
    store: deps.store,
    log: deps.log,
    env: deps.env,
    run: {
      offline: input.offline,
      refresh: input.refresh,
      retryFailed,
      check: input.check,
      ...(model ? { modelOverride: model } : {}),
      ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
}

/** Ingest (unless --no-ingest) and network enrichment (unless off): the stages that ask the network. */
function sourceStages(deps: SourceStageDeps, input: BuildInput, enrich: boolean): BuildStages {
  const { config, store, http, log } = deps;
  const timer = deps.clock.timer ?? systemTimer;
  const signal = deps.signal ? { signal: deps.signal } : {};
  return {
    ...(input.ingest
      ? {
          ingest: async () =>
            ingest({
              sources: config.sources,
              window: editionWindow(input.week),
              // The source adapters (feed parsers and all) load only for a build that asks the sources.
              ports: {
                store,
                http,
                log,
                timer,
                createSource: (await import('../sources/index.js')).createSource,
              },
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

/**
 * LLM triage on the build's LLM client; offline, the answers the last online build got (a cache-only LLM client, as `list`),
 * so the ranking is the same. A miss is no warning there: that week was not triaged online, and offline relevance
 * stands in, as it did.
 */
async function chooseTriage(deps: LlmDeps & TriageDeps, input: BuildInput, llmClient: LlmClient) {
  if (!input.offline) return createTriage({ deps, week: input.week, llmClient });
  if (!deps.config.llm.write) return null;
  const { config, store, env } = deps;
  const cached = await openLlmClient({
    llm: config.llm,
    store,
    log: silentLogger,
    env,
    run: { cacheOnly: true },
  });
  return createTriage({ deps, week: input.week, llmClient: cached, quiet: true });
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

function enrichConfig(config: Config) {
  const { arxivApiUrl, semanticScholarUrl, refreshAgeHours } = config.enrich;
  return { arxivApiUrl, semanticScholarUrl, refreshAgeHours };
}

// What a build tells the person running it: each stage as it starts, each source as it answers, and the closing
// lines (usage, papers read, flagged items, warnings, what was built). Only lines for the log: no decision is made here.
/** Each stage as it starts; per-item progress is for model calls (the extractive writer takes milliseconds). */
export function buildProgress(log: Logger, { writer, llmClient }: WriterSetup): BuildProgress {
  return {
    onStage: (stage, detail) => log.info(`› ${STAGE_LABELS[stage]} ${detail}`),
    ...(writer.name === 'extractive'
      ? {}
      : {
          onItemWritten: (done: number, total: number) =>
            log.info(`  written ${done}/${total}${formatProgress(llmClient.progress())}`),
        }),
  };
}

/** The build's closing lines: usage, reading, flagged items, warnings, what was built and by which writers. */
export function reportBuild({
  log,
  result,
  usage,
  seconds,
  degraded,
}: {
  log: Logger;
  result: BuildResult;
  usage: UsageReport;
  seconds: string;
  degraded: boolean;
}): void {
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

export function isDegraded(usage: UsageReport): boolean {
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

export function formatSourceLine(report: SourceReport): string {
  const mark = report.status === 'ok' ? '✓' : '✗';
  const warnings = report.warnings?.length ? ` (${report.warnings.length} warning(s))` : '';
  const error = report.error ? ` — ${report.error}` : '';
  if (report.notModified)
    return `  ${mark} ${report.id}: not modified since the last run (its items are stored)`;
  return `  ${mark} ${report.id}: ${report.items} item(s)${warnings}${error}`;
}
