// The one LLM road: every call a build makes (triage, item, repair, check, title/intro) goes through one model stack
// built with the AI SDK's own middleware. Outermost first: cache → retry → limit (rate, concurrency, budget,
// breaker) → deadline → transport (usage, cost, rejected keys) → the provider, whose fetch caps time and size.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { type LlmConfig, type LlmConfigInput, llmSchema, modelIdSchema } from '../config/llm-schema.js';
import { ConfigError, CredentialError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { CachePort } from '../store/types.js';
import { createBoundedFetch } from './bounded-fetch.js';
import { AnswerLedger, cacheLayer } from './cache-layer.js';
import { BudgetExceededError, ProviderUnavailableError } from './call-errors.js';
import {
  deadlineLayer,
  limitLayer,
  type ProviderBreaker,
  type RoadState,
  retryLayer,
  transportLayer,
} from './call-layers.js';
import { createCallLimiter } from './call-limiter.js';
import { priceOf } from './pricing.js';
import { schemaLayer } from './provider-schema.js';
import { keySetting, missingSetting, providerOf, resolveModel } from './providers.js';
import { type Purpose, UsageMeter, type UsageReport } from './usage.js';

export interface ModelRoadOptions {
  /** `config.llm` (defaults applied here, so a partial object is fine). */
  llm: LlmConfigInput;
  /** `--model provider:model`: replaces `llm.write`. */
  modelOverride?: string;
  store: CachePort;
  log: Logger;
  env?: NodeJS.ProcessEnv;
  /** `--offline`: no model at all. */
  offline?: boolean;
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
  /** Aborts every call in flight and every queued one (Ctrl-C). */
  signal?: AbortSignal;
  /** The fetch under the size and time caps (tests, proxies). */
  fetch?: typeof fetch;
  /** The bare model for an id, instead of the provider registry (tests: MockLanguageModelV3 under the stack). */
  languageModel?: (modelId: string) => LanguageModelV3;
}

/** A model for one purpose, wrapped in the whole stack. */
export interface RoadModel {
  readonly modelId: string;
  readonly purpose: Purpose;
  readonly model: LanguageModelV3;
  readonly temperature: number;
  readonly maxOutputTokens: number;
}

export interface ModelRoad {
  /** The model for a purpose, or null: no model configured, offline, the check turned off, or fallback allowed. */
  model(purpose: Purpose): RoadModel | null;
  /** Said once by the caller: why this run writes extractively, or what is off. Null when nothing to say. */
  readonly notice: string | null;
  readonly meter: UsageMeter;
  usage(): UsageReport;
  /** After validating an answer: `errors` empty = usable. Unusable answers stay cached but `retryFailed` re-asks them. */
  settle(callId: string, errors: string[]): Promise<void>;
  /** Whether the answer to `callId` came from the cache. */
  wasCached(callId: string): boolean;
  forget(callId: string): void;
  /** Aborted on the caller's signal or when the road stops (a rejected key). */
  readonly signal: AbortSignal;
  /** Throws the reason the road stopped (CredentialError, the caller's abort), if it did. */
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

/** Model ids per purpose: triage uses the (cheaper) check model, the title and intro the writing model. */
function modelIds(llm: LlmConfig, options: ModelRoadOptions): Record<Purpose, string | undefined> {
  const write = options.modelOverride ?? llm.write;
  const check = llm.check ?? write;
  const checkOn = options.check !== false && llm.checkEnabled;
  return { write, edition: write, check: checkOn ? check : undefined, triage: check };
}

/**
 * Builds the road for one run. Throws ConfigError before any work when a configured model lacks its key or
 * server, unless `offline` or `llm.fallback: "extractive"` (then the models are null and `notice` says why).
 */
export function createModelRoad(options: ModelRoadOptions): ModelRoad {
  const llm = llmSchema.parse(options.llm);
  const meter = new UsageMeter();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const ledger = new AnswerLedger(options.store);
  const throwIfStopped = () => {
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
  };
  const base = {
    meter,
    usage: () => meter.snapshot(),
    settle: (callId: string, errors: string[]) => ledger.settle(callId, errors),
    wasCached: (callId: string) => ledger.wasCached(callId),
    forget: (callId: string) => ledger.forget(callId),
    signal,
    throwIfStopped,
    refresh: options.refresh ?? false,
    retryFailed: options.retryFailed ?? false,
    log: options.log,
    config: llm,
  };
  const none = (notice: string | null): ModelRoad => ({ ...base, model: () => null, notice });
  if (options.offline) return none('Offline: writing with the extractive writer, no LLM calls.');

  const ids = modelIds(llm, options);
  if (options.modelOverride) validateId(options.modelOverride, '--model');
  if (!ids.write) return none(NO_MODEL_NOTICE);
  const resolveOptions = {
    llm,
    ...(options.env ? { env: options.env } : {}),
  };
  const notices: string[] = [];
  for (const modelId of new Set([ids.write, ids.check, ids.triage].filter((id): id is string => !!id))) {
    // A cache-only road never reaches a provider, so it needs no key.
    const missing = options.cacheOnly ? null : missingSetting(modelId, resolveOptions);
    if (!missing) continue;
    if (llm.fallback !== 'extractive') {
      throw new ConfigError(
        `Cannot use ${missing.message}. Set ${missing.setting}, or build with --offline, or set "llm": { "fallback": "extractive" } to write extractively without it.`,
        [{ path: missing.setting, message: 'not set' }],
      );
    }
    if (modelId === ids.write) {
      return none(
        `Cannot use the LLM writer: ${missing.message}. Writing with the extractive writer instead (llm.fallback is "extractive").`,
      );
    }
    if (ids.check === modelId) notices.push(`Faithfulness check off: ${missing.message}.`);
    if (ids.check === modelId) ids.check = undefined;
    if (ids.triage === modelId) ids.triage = ids.write;
  }

  const limiter = createCallLimiter({
    concurrency: llm.concurrency,
    requestsPerMinute: llm.requestsPerMinute,
  });
  const breaker = createBreaker();
  const maxCostUsd = options.maxCostUsd ?? llm.maxCostUsd;
  const state: RoadState = {
    meter,
    signal,
    throwIfStopped,
    breaker,
    credentialsRejected(modelId, status, cause) {
      const provider = providerOf(modelId);
      const setting = keySetting(modelId, llm);
      const message = `${provider} rejected the key for "${modelId}" (HTTP ${status}). Check ${setting}, or build with --offline.`;
      if (llm.fallback === 'extractive') {
        const error = new ProviderUnavailableError(message, { cause });
        breaker.open(provider, error);
        return error;
      }
      const error = new CredentialError(message, [{ path: setting, message: `rejected (HTTP ${status})` }], {
        cause,
      });
      if (!stop.signal.aborted) stop.abort(error);
      return error;
    },
    budgetExceeded() {
      if (maxCostUsd === undefined || meter.costUsd < maxCostUsd) return null;
      meter.recordBudgetExhausted();
      return new BudgetExceededError(`cost limit of $${maxCostUsd} reached`);
    },
  };
  const boundedFetch = createBoundedFetch({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    maxBytes: llm.maxResponseBytes,
    timeoutMs: llm.timeoutMs,
  });
  const bare = new Map<string, LanguageModelV3>();
  const bareModel = (modelId: string) => {
    let model = bare.get(modelId);
    if (!model) {
      model = options.languageModel
        ? options.languageModel(modelId)
        : resolveModel(modelId, { ...resolveOptions, fetch: boundedFetch });
      bare.set(modelId, model);
    }
    return model;
  };
  const wrapped = new Map<Purpose, RoadModel | null>();
  const build = (purpose: Purpose): RoadModel | null => {
    const modelId = ids[purpose];
    if (!modelId) return null;
    const provider = providerOf(modelId);
    const model = wrapLanguageModel({
      model: bareModel(modelId),
      middleware: [
        cacheLayer({
          modelId,
          purpose,
          store: options.store,
          ledger,
          meter,
          refresh: options.refresh ?? false,
          retryFailed: options.retryFailed ?? false,
          cacheOnly: options.cacheOnly ?? false,
        }),
        retryLayer({ maxRetries: llm.maxRetries, state }),
        limitLayer({ provider, limiter, state }),
        deadlineLayer({ provider, timeoutMs: llm.timeoutMs, state }),
        schemaLayer(provider),
        transportLayer({ modelId, purpose, price: priceOf(modelId, llm.prices), state }),
      ],
    });
    return {
      modelId,
      purpose,
      model,
      temperature: purpose === 'triage' ? 0 : llm.temperature,
      maxOutputTokens: llm.maxOutputTokens,
    };
  };
  return {
    ...base,
    notice: notices.length ? notices.join(' ') : null,
    model(purpose) {
      if (!wrapped.has(purpose)) wrapped.set(purpose, build(purpose));
      return wrapped.get(purpose) ?? null;
    },
  };
}

function validateId(modelId: string, path: string): void {
  const parsed = modelIdSchema.safeParse(modelId);
  if (parsed.success) return;
  throw new ConfigError(`Invalid model "${modelId}": ${parsed.error.issues[0]?.message ?? 'bad id'}.`, [
    { path, message: 'must be "provider:model"' },
  ]);
}

/**
 * Gives up on a provider that stopped answering, so a hung server costs one timeout, not one per call: after the
 * first timeout when it has not answered yet this run, or after 3 timeouts in a row when it had.
 */
function createBreaker(): ProviderBreaker {
  const health = new Map<string, { answered: number; timeouts: number; open: Error | null }>();
  const of = (provider: string) => {
    let entry = health.get(provider);
    if (!entry) {
      entry = { answered: 0, timeouts: 0, open: null };
      health.set(provider, entry);
    }
    return entry;
  };
  return {
    check(provider) {
      const open = of(provider).open;
      if (open) throw open;
    },
    answered(provider) {
      const entry = of(provider);
      entry.answered += 1;
      entry.timeouts = 0;
    },
    timedOut(provider, timeoutMs) {
      const entry = of(provider);
      entry.timeouts += 1;
      if (entry.open || (entry.answered > 0 && entry.timeouts < 3)) return;
      entry.open = new ProviderUnavailableError(
        `${provider} did not answer within ${timeoutMs} ms (${entry.timeouts} time(s) in a row); no more calls to it this run`,
      );
    },
    open(provider, error) {
      of(provider).open ??= error;
    },
  };
}
