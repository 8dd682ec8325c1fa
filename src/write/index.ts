// The one factory the pipeline calls: the LLM writer on the model road when a model is configured, else the
// extractive one. A configured model without its key throws ConfigError here, before any work (see the road).
import type { LlmConfigInput } from '../config/llm-schema.js';
import type { Logger } from '../core/ports.js';
import { createModelRoad, type ModelRoad, type ModelRoadOptions } from '../llm/model-road.js';
import type { UsageReport } from '../llm/usage.js';
import type { CachePort } from '../store/types.js';
import { createExtractiveWriter } from './extractive.js';
import { createLlmWriter } from './llm-writer.js';
import type { Writer } from './types.js';

export {
  createModelRoad,
  type ModelRoad,
} from '../llm/model-road.js';
export type { UsageReport } from '../llm/usage.js';
export { createExtractiveWriter } from './extractive.js';
export { formatFlaggedItems, formatProgress, formatUsageTable, outcomeNotes } from './format-usage.js';
export type { ItemForWriting, Writer } from './types.js';

export interface CreateWriterOptions {
  /** The run's model road; when given, the options below that configure a road are ignored. */
  road?: ModelRoad;
  /** `config.llm` (defaults are applied here too, so a partial object is fine). */
  llm?: LlmConfigInput;
  /** `--model provider:model`: replaces `llm.write`. */
  modelOverride?: string;
  store?: CachePort;
  log?: Logger;
  /** `--offline`: extractive writer, no LLM calls. */
  offline?: boolean;
  /** `--refresh`: ignore cached LLM answers (new answers are still cached). */
  refresh?: boolean;
  /** `--retry-failed`: ask again only the calls whose cached answer failed validation. */
  retryFailed?: boolean;
  /** false (`--no-check`) turns the faithfulness check off; it is also off when `llm.checkEnabled` is false. */
  check?: boolean;
  /** `--max-cost`: overrides `llm.maxCostUsd`. */
  maxCostUsd?: number;
  /** Where API keys are read from; without it no key is set (cached answers and local models still work). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export interface WriterSetup {
  writer: Writer;
  /** Printed once by the CLI (e.g. "no LLM configured: …, to configure one …"); null when there is nothing to say. */
  notice: string | null;
  usage(): UsageReport;
  /** The road the writer calls through; triage takes its model from the same road. */
  road: ModelRoad;
}

export function createWriter(options: CreateWriterOptions): WriterSetup {
  const road = options.road ?? createModelRoad(roadOptions(options));
  const writer = road.model('write') ? createLlmWriter({ road }) : createExtractiveWriter();
  return { writer, notice: road.notice, usage: road.usage, road };
}

function roadOptions(options: CreateWriterOptions) {
  if (!options.store || !options.log)
    throw new Error('createWriter: give either a road or a store and a log');
  return {
    llm: options.llm ?? {},
    store: options.store,
    log: options.log,
    run: {
      ...(options.modelOverride !== undefined ? { modelOverride: options.modelOverride } : {}),
      ...(options.offline !== undefined ? { offline: options.offline } : {}),
      ...(options.refresh !== undefined ? { refresh: options.refresh } : {}),
      ...(options.retryFailed !== undefined ? { retryFailed: options.retryFailed } : {}),
      ...(options.check !== undefined ? { check: options.check } : {}),
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    },
    env: options.env ?? {},
    ...(options.fetch ? { engine: { fetch: options.fetch } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  } satisfies ModelRoadOptions;
}
