// The one factory the pipeline calls: picks the LLM writer when a model is configured, else the extractive one.
import { type LlmConfigInput, llmSchema, modelIdSchema } from '../config/llm-schema.js';
import { ConfigError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { Store } from '../store/types.js';
import { createCallLimiter } from './call-limiter.js';
import { createExtractiveWriter } from './extractive.js';
import { createLlmWriter } from './llm-writer.js';
import { credentialProblem, resolveModel } from './providers.js';
import type { Writer } from './types.js';
import { emptyUsage, UsageMeter, type UsageReport } from './usage.js';

export { createExtractiveWriter } from './extractive.js';
export type { ClaimVerdict, ItemChecks } from './faithfulness.js';
export { formatFlaggedItems, formatUsageTable } from './format-usage.js';
export { createLlmWriter, type LlmWriterOptions } from './llm-writer.js';
export { createModelRegistry, credentialProblem, providerOf, resolveModel } from './providers.js';
export type { ItemForWriting, Writer, WriterContext } from './types.js';
export type { UsageReport } from './usage.js';

export interface CreateWriterOptions {
  /** `config.llm` (defaults are applied here too, so a partial object is fine). */
  llm: LlmConfigInput;
  /** `--model provider:model`: replaces `llm.write`. */
  modelOverride?: string;
  store: Store;
  log: Logger;
  /** `--offline`: extractive writer, no LLM calls. */
  offline?: boolean;
  /** `--refresh`: ignore cached LLM answers (new answers are still cached). */
  refresh?: boolean;
  /** false (`--no-check`) turns the faithfulness check off; it is also off when `llm.checkEnabled` is false. */
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
  const extractive = (notice: string | null): WriterSetup => ({
    writer: createExtractiveWriter(),
    notice,
    usage: emptyUsage,
  });
  if (options.offline) return extractive('Offline: writing with the extractive writer, no LLM calls.');
  const llm = llmSchema.parse(options.llm);
  const modelId = options.modelOverride ?? llm.write;
  if (!modelId) return extractive(NO_MODEL_NOTICE);
  const parsed = modelIdSchema.safeParse(modelId);
  if (!parsed.success) {
    throw new ConfigError(`Invalid model "${modelId}": ${parsed.error.issues[0]?.message ?? 'bad id'}.`, [
      { path: options.modelOverride ? '--model' : 'llm.write', message: 'must be "provider:model"' },
    ]);
  }
  const resolveOptions = {
    llm,
    ...(options.env ? { env: options.env } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const problem = credentialProblem(modelId, resolveOptions);
  if (problem)
    return extractive(`Cannot use the LLM writer: ${problem}. Writing with the extractive writer instead.`);

  const notices: string[] = [];
  const checkId = llm.check ?? modelId;
  // Off when either says so: `--no-check` for one build, `llm.checkEnabled: false` for every build.
  let checkOn = options.check !== false && llm.checkEnabled;
  const checkProblem = checkOn ? credentialProblem(checkId, resolveOptions) : null;
  if (checkProblem) {
    notices.push(`Faithfulness check off: ${checkProblem}.`);
    checkOn = false;
  }
  const meter = new UsageMeter();
  const maxCostUsd = options.maxCostUsd ?? llm.maxCostUsd;
  const writer = createLlmWriter({
    write: { model: resolveModel(modelId, resolveOptions), modelId },
    check: checkOn ? { model: resolveModel(checkId, resolveOptions), modelId: checkId } : null,
    store: options.store,
    log: options.log,
    meter,
    limiter: createCallLimiter({ concurrency: llm.concurrency, requestsPerMinute: llm.requestsPerMinute }),
    refresh: options.refresh ?? false,
    prices: llm.prices,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    timeoutMs: llm.timeoutMs,
    maxRetries: llm.maxRetries,
    temperature: llm.temperature,
    maxInputTokens: llm.maxInputTokens,
    maxOutputTokens: llm.maxOutputTokens,
  });
  return { writer, notice: notices.length ? notices.join(' ') : null, usage: () => meter.snapshot() };
}
