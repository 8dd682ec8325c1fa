// The build flow shared by `digest build` and `digest demo`: ingest → enrich → select → write → render.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { editionWindow } from '../core/dates.js';
import type { SourceReport, StoredItem } from '../core/types.js';
import { enrichItems } from '../enrich/index.js';
import { type BuildResult, buildEdition } from '../pipeline/build-edition.js';
import { ingest } from '../pipeline/ingest.js';
import { nodeFileSystem, writeEditionFiles } from '../publish/write-site.js';
import { planEdition } from '../select/plan-edition.js';
import { triageCandidates } from '../select/triage.js';
import { triageShortlist } from '../select/triage-shortlist.js';
import type { SelectionPolicy } from '../select/types.js';
import { createSource } from '../sources/index.js';
import { createWriter, formatFlaggedItems, formatUsageTable, type UsageReport } from '../write/index.js';
import { credentialProblem, resolveModel } from '../write/providers.js';
import type { CliContext } from './context.js';
import type { Runtime } from './runtime.js';

export interface BuildFlags {
  week: string;
  out: string;
  ingest: boolean;
  offline: boolean;
  model?: string;
  check: boolean;
  refresh: boolean;
  maxCost?: number;
  enrich: boolean;
}

export interface BuildOutcome {
  result: BuildResult;
  pagePath: string;
  /** True when an LLM was asked and some item fell back, failed its check, or a call failed. */
  degraded: boolean;
}

export async function runBuild(
  runtime: Runtime,
  flags: BuildFlags,
  context: CliContext,
): Promise<BuildOutcome> {
  const { config, store, http, log } = runtime;
  const startedAt = Date.now();
  const writerSetup = createWriter({
    llm: config.llm,
    store,
    log,
    offline: flags.offline,
    refresh: flags.refresh,
    check: flags.check,
    env: context.env,
    ...(flags.model ? { modelOverride: flags.model } : {}),
    ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
  });
  if (writerSetup.notice) log.info(writerSetup.notice);

  const window = editionWindow(flags.week);
  const triage = createTriage(runtime, flags, context);
  const result = await buildEdition({
    date: flags.week,
    config,
    store,
    writer: writerSetup.writer,
    log,
    planEdition,
    ...(flags.ingest
      ? {
          ingest: () =>
            ingest({
              sources: config.sources,
              window,
              store,
              http,
              log,
              createSource,
              onSourceDone: (report) => log.info(formatSourceLine(report)),
            }),
        }
      : {}),
    ...(triage ? { triage: triage.run } : {}),
    ...(flags.enrich && config.enrich.enabled
      ? {
          enrich: (items) =>
            enrichItems(items, { http, store, log, env: context.env, config: enrichConfig(config) }),
        }
      : {}),
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
      : { onItemWritten: (done: number, total: number) => log.info(`  written ${done}/${total}`) }),
  });

  const usage = writerSetup.usage();
  const editions = await store.listEditions();
  const outDir = resolve(context.cwd, flags.out);
  await writeEditionFiles(nodeFileSystem, outDir, result.edition, editions, siteOptions(config));

  if (usage.calls > 0 || usage.cacheHits > 0) log.info(formatUsageTable(usage));
  const flagged = formatFlaggedItems(result.edition.items);
  if (flagged) log.info(`\n${flagged}`);
  const degraded = isDegraded(usage);
  if (result.warnings.length) {
    log.info(`\n${result.warnings.length} warning(s):`);
    for (const warning of result.warnings) log.info(`  - ${warning}`);
  }
  log.info(
    `\nBuilt "${result.edition.title}" — ${result.edition.items.length} items, ${((Date.now() - startedAt) / 1000).toFixed(1)} s, writer: ${result.edition.writer}`,
  );
  if (degraded) {
    log.info(
      `Some of the edition was not written as asked: ${usage.fallbackItems} item(s) fell back to the extractive writer, ` +
        `${usage.flaggedItems} flagged by the faithfulness check, ${usage.failedCalls} failed call(s)` +
        `${usage.budgetExhausted ? ', the --max-cost budget ran out' : ''}. See edition.json (writer, checks) for each item.`,
    );
  }
  return { result, pagePath: resolve(outDir, flags.week, 'index.html'), degraded };
}

/** LLM triage with the cheap (check) model when an LLM writes this build; null offline or without credentials. */
function createTriage(runtime: Runtime, flags: BuildFlags, context: CliContext) {
  const { config, store, log } = runtime;
  const modelId = config.llm.check ?? flags.model ?? config.llm.write;
  if (flags.offline || !modelId) return null;
  const options = { llm: config.llm, env: context.env };
  if (credentialProblem(modelId, options)) return null;
  const model = resolveModel(modelId, options);
  let spent: TriageReport | null = null;
  const run = async (items: StoredItem[], policy: SelectionPolicy) => {
    const shortlist = triageShortlist(items, policy, flags.week, config.selection.triageLimit);
    const result = await triageCandidates(shortlist, {
      model,
      audience: config.audience,
      batchSize: config.selection.triageBatchSize,
      store,
      log,
      refresh: flags.refresh,
    });
    for (const warning of result.warnings) log.warn(`triage: ${warning}`);
    log.info(
      `  triage (${modelId}): ${result.scores.size} of ${shortlist.length} rated, ${result.usage.calls} call(s), ` +
        `${result.usage.cacheHits} cached, ${result.usage.inputTokens} tokens in / ${result.usage.outputTokens} out`,
    );
    spent = {
      model: modelId,
      calls: result.usage.calls,
      cacheHits: result.usage.cacheHits,
      tokensIn: result.usage.inputTokens,
      tokensOut: result.usage.outputTokens,
    };
    return result.scores;
  };
  return { run, spent: () => spent };
}

/** What LLM triage used this build; edition.json carries it beside the writer's usage. */
interface TriageReport {
  model: string;
  calls: number;
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
}

function isDegraded(usage: UsageReport): boolean {
  return usage.fallbackItems > 0 || usage.flaggedItems > 0 || usage.failedCalls > 0 || usage.budgetExhausted;
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

function siteOptions(config: Config) {
  return { siteName: config.name, ...(config.publish.baseUrl ? { baseUrl: config.publish.baseUrl } : {}) };
}

function enrichConfig(config: Config) {
  const { arxivApiUrl, semanticScholarUrl, refreshAgeHours } = config.enrich;
  return { arxivApiUrl, semanticScholarUrl, refreshAgeHours };
}
