// What every LLM client is, with or without a model: its public entry (LlmClient), the usage meter, the answers ledger, the
// stop signal and the run's flags; and the LLM client of a run that asks no model (offline, none configured), which
// needs nothing of the AI SDK (open-model-LLM client.ts hands it out without loading model-LLM client.ts and the SDK).
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { LlmConfig, LlmConfigInput } from '../config/llm-schema.js';
import type { Logger, StageStore } from '../core/ports.js';
import { AnswerLedger } from './cache-layer.js';
import type { LlmEngine } from './model-stack.js';
import { type Purpose, UsageMeter, type UsageReport } from './usage.js';

export interface LlmClientOptions {
  /** `config.llm` (defaults applied here, so a partial object is fine). */
  llm: LlmConfigInput;
  store: Pick<StageStore, 'cache'>;
  log: Logger;
  env: NodeJS.ProcessEnv;
  /** What this run asks of the LLM client (the command's flags). */
  run?: LlmRun;
  /** Aborts every call in flight and every queued one (Ctrl-C). */
  signal?: AbortSignal;
  /** What sits under the stack, replaced by tests and proxies. */
  engine?: LlmEngine;
}

/** What one run asks of the LLM client: mostly its command's flags. */
export interface LlmRun {
  /** `--model provider:model`: replaces `llm.write`. */
  modelOverride?: string;
  /** `--offline`: no model at all. */
  offline?: boolean;
  /** What the caller can do instead of giving a missing or rejected key (default: the build's --offline). */
  withoutKey?: string;
  /** false (`--no-check`) turns the faithfulness check off; so does `llm.checkEnabled: false`. */
  check?: boolean;
  /** `--refresh`: ask every call again (new answers replace the cached ones). */
  refresh?: boolean;
  /** `--retry-failed`: ask again only the calls whose cached answer failed validation. */
  retryFailed?: boolean;
  /** `--max-cost`: overrides `llm.maxCostUsd`. */
  maxCostUsd?: number;
  /** Answer every call from the cache only, never asking a model (`digest list` shows the build's ranking). */
  cacheOnly?: boolean;
}

/** A model for one purpose, wrapped in the whole stack. */
export interface LlmClientModel {
  /** The model asked first. */
  readonly modelId: string;
  /** The model, then `llm.fallbacks`: the order a call whose provider is down tries them. */
  readonly models: readonly string[];
  readonly purpose: Purpose;
  readonly model: LanguageModelV3;
  readonly temperature: number;
  readonly maxOutputTokens: number;
}

/** For the progress line: calls in flight and queued by the LLM client, and each model's output tokens per second. */
export interface LlmProgress {
  running: number;
  waiting: number;
  tokensPerSecond: Record<string, number>;
}

export interface LlmClient {
  /** The model for a purpose, or null: no model configured, offline, the check turned off, or fallback allowed. */
  model(purpose: Purpose): LlmClientModel | null;
  /** Said once by the caller: why this run writes extractively, or what is off. Null when nothing to say. */
  readonly notice: string | null;
  readonly meter: UsageMeter;
  usage(): UsageReport;
  /** After validating an answer: `errors` empty = usable. Unusable answers stay cached but `retryFailed` re-asks them. */
  settle(callId: string, errors: string[]): Promise<void>;
  /** Whether the answer to `callId` came from the cache. */
  wasCached(callId: string): boolean;
  /** The model that answered `callId` (read before settling it). */
  answeredBy(callId: string): string | undefined;
  /** Calls running and waiting now, and the models' speed so far. */
  progress(): LlmProgress;
  forget(callId: string): void;
  /** Aborted on the caller's signal or when the LLM client stops (a rejected key). */
  readonly signal: AbortSignal;
  /** Throws the reason the LLM client stopped (CredentialError, the caller's abort), if it did. */
  throwIfStopped(): void;
  readonly refresh: boolean;
  readonly retryFailed: boolean;
  readonly log: Logger;
  readonly config: LlmConfig;
}

export const NO_MODEL_NOTICE =
  'No LLM configured: writing with the offline extractive writer. To use a model, set "llm": { "write": "openai:gpt-4.1-mini" } ' +
  'in digest.config.json (or anthropic:…, ollama:…, openai-compatible:…) with OPENAI_API_KEY / ANTHROPIC_API_KEY in the ' +
  'environment, or pass --model provider:model.';

/** Model ids per purpose: triage uses the (cheaper) check model; the title and intro, and translations, the writing model. */
export function modelIds(llm: LlmConfig, run: LlmRun): Record<Purpose, string | undefined> {
  const write = run.modelOverride ?? llm.write;
  const check = llm.check ?? write;
  const checkOn = run.check !== false && llm.checkEnabled;
  // Translation (config `languages`) is writing in another language: the writing model.
  return { write, edition: write, check: checkOn ? check : undefined, triage: check, translate: write };
}

export type LlmClientBase = Omit<LlmClient, 'model' | 'notice' | 'progress'>;

/** What every LLM client answers, with or without models: usage, the ledger's answers, the stop signal, the run's flags. */
function clientBase({
  options,
  llm,
  ledger,
  stop,
}: {
  options: LlmClientOptions;
  llm: LlmConfig;
  ledger: AnswerLedger;
  stop: AbortController;
}): LlmClientBase {
  const meter = new UsageMeter();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  return {
    meter,
    usage: () => meter.snapshot(),
    settle: (callId: string, errors: string[]) => ledger.settle(callId, errors),
    wasCached: (callId: string) => ledger.wasCached(callId),
    answeredBy: (callId: string) => ledger.answeredBy(callId),
    forget: (callId: string) => ledger.forget(callId),
    signal,
    throwIfStopped: () => {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
    },
    refresh: options.run?.refresh ?? false,
    retryFailed: options.run?.retryFailed ?? false,
    log: options.log,
    config: llm,
  };
}

export const OFFLINE_NOTICE = 'Offline: writing with the extractive writer, no LLM calls.';

/** Why this run asks no model at all (offline, or no writing model); null when it may ask one. */
export function noModelNotice(llm: LlmConfig, run: LlmRun): string | null {
  if (run.offline) return OFFLINE_NOTICE;
  return modelIds(llm, run).write ? null : NO_MODEL_NOTICE;
}

/** What a LLM client starts from, models or not. */
export function startLlmClient(
  options: LlmClientOptions,
  llm: LlmConfig,
): { base: LlmClientBase; stop: AbortController; ledger: AnswerLedger } {
  const stop = new AbortController();
  const ledger = new AnswerLedger(options.store);
  return { base: clientBase({ options, llm, ledger, stop }), stop, ledger };
}

/** A LLM client without models: every `model()` is null and `notice` says why. */
export function quietLlmClient(base: LlmClientBase, notice: string | null): LlmClient {
  return {
    ...base,
    model: () => null,
    notice,
    progress: () => ({ running: 0, waiting: 0, tokensPerSecond: {} }),
  };
}
