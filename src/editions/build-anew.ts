// A build anew: every port of one build assembled once from the deps (one LLM client, triage, taste, the sources),
// the one orchestrator (build-edition.ts) run over them, then the edition's page and the closing report. Loaded by
// build.ts only when the week's inputs changed (or the run asks for new text).
import type { Config } from '../config/config-schema.js';
import { systemTimer } from '../core/clock.js';
import { editionWindow } from '../core/dates.js';
import { silentLogger } from '../core/ports.js';
import type { Edition } from '../core/types.js';
import type { LlmClient, LlmClientOptions } from '../llm/client-types.js';
import { openLlmClient } from '../llm/open-client.js';
import type { UsageReport } from '../llm/usage.js';
import { openWriter } from '../write/writer-setup.js';
import {
  type BuildPorts,
  type BuildProgress,
  type BuildResult,
  type BuildStages,
  buildEdition,
} from './build-edition.js';
import { rememberInputs } from './build-inputs.js';
import { writeEditionPage } from './build-page.js';
import { buildProgress, formatSourceLine, isDegraded, reportBuild } from './build-report.js';
import { formatWaiting, ingest } from './ingest.js';
import { paperReader } from './paper-reader.js';
import type { BuildDeps, LlmDeps, SourceStageDeps, TriageDeps } from './ports.js';
import { createTriage, type TriageReport } from './shared-triage.js';
import { tasteEmbedder } from './taste-embedder.js';
import { translateLanguages } from './translate-edition.js';

export interface BuildInput {
  week: string;
  /**
   * Folder the draft's page is written to (checked by the entry point before any work): never the published site,
   * which only a publish changes (refused with a ConfigError).
   */
  outDir: string;
  ingest: boolean;
  enrich: boolean;
  offline: boolean;
  check: boolean;
  refresh: boolean;
  /** This build's overrides of the LLM client (the CLI's --model, --retry-failed, --max-cost). */
  llm?: BuildLlmInput;
}

export interface BuildLlmInput {
  model?: string;
  /** Ask again only the LLM calls whose cached answer failed validation. */
  retryFailed?: boolean;
  maxCost?: number;
}
/** Runs every stage of the week's build, writes its page, reports it and records its inputs. */
export async function buildAnew(
  deps: BuildDeps,
  input: BuildInput,
  startedAt: number,
): Promise<{ result: BuildResult; degraded: boolean }> {
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
  await writeEditionPage(deps, input, { edition: result.edition, enriched: assembled.enrich });
  const degraded = isDegraded(usage);
  const seconds = ((clock.now().getTime() - startedAt) / 1000).toFixed(1);
  reportBuild({ log, result, usage, seconds, degraded });
  await rememberInputs(deps, input, degraded);
  return { result, degraded };
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
