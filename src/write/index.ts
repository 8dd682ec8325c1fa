// The one factory the pipeline calls: picks the LLM writer when a model is configured, else the extractive one.
import type { LlmConfig } from '../config/llm-schema.js';
import type { Logger } from '../core/ports.js';
import type { Store } from '../store/types.js';
import { createExtractiveWriter } from './extractive.js';
import type { Writer } from './types.js';
import { emptyUsage, type UsageReport } from './usage.js';

export { createExtractiveWriter } from './extractive.js';
export { formatUsageTable } from './format-usage.js';
export type { ItemForWriting, Writer, WriterContext } from './types.js';
export type { UsageReport } from './usage.js';

export interface CreateWriterOptions {
  llm: LlmConfig;
  /** `--model provider:model`: replaces `llm.write`. */
  modelOverride?: string;
  store: Store;
  log: Logger;
  /** `--offline`: extractive writer, no LLM calls. */
  offline?: boolean;
  /** `--refresh`: ignore cached LLM answers (new answers are still cached). */
  refresh?: boolean;
  /** `--no-check` sets false; default: `llm.check.enabled`. */
  check?: boolean;
  /** `--max-cost`: overrides `llm.maxCostUsd`. */
  maxCostUsd?: number;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

export interface WriterSetup {
  writer: Writer;
  /** Printed once by the CLI (e.g. "no LLM configured: …, to configure one …"); null when there is nothing to say. */
  notice: string | null;
  usage(): UsageReport;
}

export const NO_MODEL_NOTICE =
  'No LLM configured: writing with the offline extractive writer. To use a model, set "llm": { "write": "openai:gpt-4.1-mini" } ' +
  'in digest.config.json (or anthropic:…, ollama:…, openai-compatible:…) with OPENAI_API_KEY / ANTHROPIC_API_KEY in the ' +
  'environment, or pass --model provider:model.';

export function createWriter(options: CreateWriterOptions): WriterSetup {
  const modelId = options.modelOverride ?? options.llm.write;
  if (options.offline || !modelId) {
    return {
      writer: createExtractiveWriter(),
      notice: options.offline ? null : NO_MODEL_NOTICE,
      usage: emptyUsage,
    };
  }
  // The LLM writer lands in the next step; until then every build is extractive and says why.
  return {
    writer: createExtractiveWriter(),
    notice: `LLM writer not available yet: "${modelId}" ignored, writing with the extractive writer.`,
    usage: emptyUsage,
  };
}
