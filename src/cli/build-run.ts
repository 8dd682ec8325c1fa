// The build flow shared by `digest build` and `digest demo`: ingest → enrich → select → write → render.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { editionWindow } from '../core/dates.js';
import type { SourceReport } from '../core/types.js';
import { enrichItems } from '../enrich/index.js';
import { type BuildResult, buildEdition } from '../pipeline/build-edition.js';
import { ingest } from '../pipeline/ingest.js';
import { nodeFileSystem, writeEditionFiles } from '../publish/write-site.js';
import { planEdition } from '../select/plan-edition.js';
import { createSource } from '../sources/index.js';
import { createWriter, formatUsageTable } from '../write/index.js';
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
    ...(flags.enrich && config.enrich.enabled
      ? {
          enrich: (items) =>
            enrichItems(items, { http, store, log, env: context.env, config: enrichConfig(config) }),
        }
      : {}),
    onStage: (stage, detail) => log.info(`› ${STAGE_LABELS[stage]} ${detail}`),
    onItemWritten: (done, total) => log.info(`  written ${done}/${total}`),
  });

  const usage = writerSetup.usage();
  if (usage.calls > 0 || usage.cacheHits > 0) result.edition.usage = usage;
  await store.saveEdition(result.edition);
  const editions = await store.listEditions();
  const outDir = resolve(context.cwd, flags.out);
  await writeEditionFiles(nodeFileSystem, outDir, result.edition, editions, siteOptions(config));

  if (usage.calls > 0 || usage.cacheHits > 0) log.info(formatUsageTable(usage));
  if (result.warnings.length) {
    log.info(`\n${result.warnings.length} warning(s):`);
    for (const warning of result.warnings) log.info(`  - ${warning}`);
  }
  log.info(
    `\nBuilt "${result.edition.title}" — ${result.edition.items.length} items, ${((Date.now() - startedAt) / 1000).toFixed(1)} s, writer: ${result.edition.writer}`,
  );
  return { result, pagePath: resolve(outDir, flags.week, 'index.html') };
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
  return `  ${mark} ${report.id}: ${report.items} item(s)${warnings}${error}`;
}

function siteOptions(config: Config) {
  return { siteName: config.name, ...(config.publish.baseUrl ? { baseUrl: config.publish.baseUrl } : {}) };
}

function enrichConfig(config: Config) {
  const { arxivApiUrl, semanticScholarUrl, refreshAgeHours } = config.enrich;
  return { arxivApiUrl, semanticScholarUrl, refreshAgeHours };
}
