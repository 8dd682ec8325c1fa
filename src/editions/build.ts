// The build use case: ingest → enrich → select (with triage) → write → save → render the edition's page.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { editionWindow } from '../core/dates.js';
import { silentLogger } from '../core/ports.js';
import type { SourceReport } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import { siteOptions } from '../publish/site-options.js';
import { writeEditionFiles } from '../publish/write-site.js';
import { planEdition } from '../select/plan-edition.js';
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
} from '../write/index.js';
import { type BuildResult, buildEdition, type FullTextSummary } from './build-edition.js';
import { formatWaiting, ingest } from './ingest.js';
import { paperReader } from './paper-reader.js';
import { tasteEmbedder } from './taste-embedder.js';
import { translateLanguages } from './translate.js';
import { createTriage } from './triage.js';

export interface BuildInput {
  week: string;
  /** Folder the edition's page is written to (checked by the entry point before any work). */
  outDir: string;
  ingest: boolean;
  enrich: boolean;
  offline: boolean;
  model?: string;
  check: boolean;
  refresh: boolean;
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

export async function build(deps: DigestDeps, input: BuildInput): Promise<BuildOutcome> {
  const { config, store, http, log, clock } = deps;
  const startedAt = clock.now().getTime();
  // One road for every LLM call of the build (triage, writing, checks, title/intro); throws ConfigError before any
  // work when a configured model has no key.
  const road = createModelRoad({
    llm: config.llm,
    store,
    log,
    env: deps.env,
    run: {
      offline: input.offline,
      refresh: input.refresh,
      retryFailed: input.retryFailed ?? false,
      check: input.check,
      ...(input.model ? { modelOverride: input.model } : {}),
      ...(input.maxCost !== undefined ? { maxCostUsd: input.maxCost } : {}),
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const writerSetup = createWriter({ road });
  if (writerSetup.notice) log.info(writerSetup.notice);

  const window = editionWindow(input.week);
  // Offline: the stages that would fetch are skipped up front (and any request is refused: see offline-http.ts).
  const enrich = input.enrich && config.enrich.enabled && !input.offline;
  const notice = input.offline ? offlineNotice(input, config) : null;
  if (notice) log.info(notice);
  const triage = chooseTriage(deps, input, road);
  // Offline, learned taste uses the vectors stored by earlier builds, and tf-idf (with a warning) for the rest.
  const maxCostUsd = input.maxCost ?? config.llm.maxCostUsd;
  const embedder = await tasteEmbedder(deps, {
    cacheOnly: input.offline,
    budget: { meter: road.meter, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) },
  });
  const result = await buildEdition({
    date: input.week,
    config,
    store,
    writer: writerSetup.writer,
    log,
    planEdition,
    ...(embedder ? { tasteEmbedder: embedder } : {}),
    today: clock.now(),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(input.ingest
      ? {
          ingest: () =>
            ingest({
              sources: config.sources,
              window,
              store,
              http,
              log,
              createSource,
              ...(deps.signal ? { signal: deps.signal } : {}),
              onSourceDone: (report) => log.info(formatSourceLine(report)),
              onWaiting: (waiting) => log.info(formatWaiting(waiting)),
            }),
        }
      : {}),
    ...(triage ? { triage: async (items, policy) => (await triage.run(items, policy)).scores } : {}),
    ...(enrich
      ? {
          enrich: async (items) => {
            const { enrichItems } = await import('../enrich/index.js');
            return enrichItems(items, { http, store, log, env: deps.env, config: enrichConfig(config) });
          },
        }
      : {}),
    ...(config.llm.fullText ? { readPapers: paperReader(deps, input) } : {}),
    usage: () => {
      const spent = writerSetup.usage();
      if (spent.calls === 0 && spent.cacheHits === 0) return undefined;
      const triageSpent = triage?.spent() ?? null;
      return triageSpent ? { ...spent, triage: triageSpent } : spent;
    },
    onStage: (stage, detail) => log.info(`› ${STAGE_LABELS[stage]} ${detail}`),
    // The extractive writer takes milliseconds; per-item progress is for model calls.
    ...(writerSetup.writer.name === 'extractive'
      ? {}
      : {
          onItemWritten: (done: number, total: number) =>
            log.info(`  written ${done}/${total}${formatProgress(writerSetup.road.progress())}`),
        }),
  });

  const translationWarnings = await translateLanguages(deps, result.edition, road);
  result.warnings.push(...translationWarnings);
  const usage = writerSetup.usage();
  const editions = await store.listEditions();
  await writeEditionFiles(deps.fs, input.outDir, result.edition, editions, {
    ...siteOptions(config),
    // Item images are fetched (once, guarded) with the rest of the network enrichment; --no-enrich: no images.
    ...(enrich ? { fetchImages: { http, log } } : {}),
  });

  if (usage.calls > 0 || usage.cacheHits > 0) log.info(formatUsageTable(usage));
  const reading = formatFullText(result.fullText);
  if (reading) log.info(reading);
  const flagged = formatFlaggedItems(result.edition.items);
  if (flagged) log.info(`\n${flagged}`);
  const degraded = isDegraded(usage);
  if (result.warnings.length) {
    log.info(`\n${result.warnings.length} warning(s):`);
    for (const warning of result.warnings) log.info(`  - ${warning}`);
  }
  const seconds = ((clock.now().getTime() - startedAt) / 1000).toFixed(1);
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
  return { result, pagePath: resolve(input.outDir, input.week, 'index.html'), degraded };
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
  const cached = createModelRoad({
    llm: config.llm,
    store,
    log: silentLogger,
    env,
    run: { cacheOnly: true },
  });
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
