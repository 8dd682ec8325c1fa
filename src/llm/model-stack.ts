// One model wrapped in the LLM client's whole stack, outermost first: cache → retry → limit (rate, adaptive concurrency,
// budget, breaker) → deadline → schema (the provider's form) → transport (usage, cost, rejected keys) → the
// provider, whose fetch caps time and size. The limiter, breaker and bounded fetch are shared by every model of
// the run; an engine's window is set from the slots it reports (or 1 when local) before its first call.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { DEFAULT_CONCURRENCY, type LlmConfig, type ProviderName } from '../config/llm-schema.js';
import type { Logger, StageStore } from '../core/ports.js';
import { createBoundedFetch } from './bounded-fetch.js';
import { type AnswerLedger, cacheLayer } from './cache-layer.js';
import { deadlineLayer, type LlmClientState, limitLayer, retryLayer, transportLayer } from './call-layers.js';
import { type CallLimiter, createCallLimiter, type ProviderWindow } from './call-limiter.js';
import { engineSlots } from './engine-slots.js';
import { priceOf } from './pricing.js';
import { schemaLayer } from './provider-schema.js';
import { endpointOf, isLocalModel, providerOf, type ResolveModelOptions, resolveModel } from './providers.js';
import type { Purpose } from './usage.js';

export interface StackOptions {
  llm: LlmConfig;
  resolve: ResolveModelOptions;
  cache: StackCache;
  state: LlmClientState;
  log: Logger;
  engine?: LlmEngine;
}

/** The answer cache every stack's outer layer reads and fills, and how this run uses it. */
export interface StackCache {
  store: Pick<StageStore, 'cache'>;
  ledger: AnswerLedger;
  refresh: boolean;
  retryFailed: boolean;
  cacheOnly: boolean;
}

/** The bottom of the stack, replaced by tests and proxies. */
export interface LlmEngine {
  /** The fetch under the size and time caps. */
  fetch?: typeof fetch;
  /** The bare model for an id, instead of the provider registry (tests: MockLanguageModelV3 under the stack). */
  languageModel?: (modelId: string) => LanguageModelV3;
}

export interface ModelStacks {
  /** The model for an id and purpose, in the whole stack (made once per pair). */
  wrap(modelId: string, purpose: Purpose): LanguageModelV3;
  /** Calls running and waiting, per provider. */
  windows(): Partial<Record<ProviderName, ProviderWindow>>;
}

export function createModelStacks(options: StackOptions): ModelStacks {
  const { llm, state } = options;
  const limiter = createCallLimiter({
    concurrency: llm.concurrency ?? DEFAULT_CONCURRENCY,
    requestsPerMinute: llm.requestsPerMinute,
  });
  const boundedFetch = createBoundedFetch({
    ...(options.engine?.fetch ? { fetch: options.engine.fetch } : {}),
    maxBytes: llm.maxResponseBytes,
    timeoutMs: llm.timeoutMs,
  });
  const bare = new Map<string, LanguageModelV3>();
  const bareModel = (modelId: string) => {
    let model = bare.get(modelId);
    if (!model) {
      const languageModel = options.engine?.languageModel;
      model = languageModel
        ? languageModel(modelId)
        : resolveModel(modelId, { ...options.resolve, fetch: boundedFetch });
      bare.set(modelId, model);
    }
    return model;
  };
  const prepared = new Map<ProviderName, Promise<void>>();
  const prepare = (modelId: string) => () => {
    const provider = providerOf(modelId);
    let ready = prepared.get(provider);
    if (!ready) {
      ready = sizeEngineWindow(modelId, limiter, { ...options, fetch: boundedFetch });
      prepared.set(provider, ready);
    }
    return ready;
  };
  const wrapped = new Map<string, LanguageModelV3>();
  return {
    wrap(modelId, purpose) {
      const key = `${purpose} ${modelId}`;
      const found = wrapped.get(key);
      if (found) return found;
      const provider = providerOf(modelId);
      const local = isLocalModel(modelId, options.resolve);
      const model = wrapLanguageModel({
        model: bareModel(modelId),
        middleware: [
          cacheLayer({ modelId, purpose, meter: state.meter, ...options.cache }),
          retryLayer({ maxRetries: llm.maxRetries, state }),
          limitLayer({
            provider,
            modelId,
            purpose,
            limiter,
            state,
            timeoutMs: llm.timeoutMs,
            prepare: prepare(modelId),
          }),
          deadlineLayer({ timeoutMs: llm.timeoutMs }),
          schemaLayer(provider),
          transportLayer({ modelId, purpose, price: priceOf(modelId, llm.prices, local), state }),
        ],
      });
      wrapped.set(key, model);
      return model;
    },
    windows: () => limiter.windows(),
  };
}

/**
 * An inference engine serves a few calls at once and queues the rest, where their timeouts would run out on the
 * line. `llm.concurrency`, when set, is the window; else an `ollama:` or `openai-compatible:` server starts at the
 * slots it reports (llama.cpp's /props), and a local one that does not say at 1 (a remote one at the default).
 */
async function sizeEngineWindow(
  modelId: string,
  limiter: CallLimiter,
  options: Pick<StackOptions, 'llm' | 'resolve' | 'log' | 'state' | 'engine'> & { fetch: typeof fetch },
): Promise<void> {
  const provider = providerOf(modelId);
  if (provider !== 'ollama' && provider !== 'openai-compatible') return;
  const configured = options.llm.concurrency;
  if (configured !== undefined) {
    limiter.configure(provider, { start: configured, max: configured });
    return;
  }
  const local = isLocalModel(modelId, options.resolve);
  const endpoint = endpointOf(modelId, options.resolve);
  let failure: unknown;
  const slots = await engineSlots(endpoint, {
    fetch: options.fetch,
    signal: options.state.signal,
    onError: (error) => {
      failure = error;
    },
  });
  // Nothing listens there: the breaker is open before the first call, which then costs no connection at all (unless
  // the calls do not go there: a test's model in place of the provider's).
  const callsGoThere = !options.engine?.languageModel;
  if (failure !== undefined && callsGoThere && options.state.unreachable(modelId, failure)) {
    // That probe was the run's one attempt at the provider: counted as a failed call, so the usage says it was made.
    options.state.meter.recordCall({
      model: modelId,
      tokensIn: 0,
      tokensOut: 0,
      costUsd: 0,
      latencyMs: 0,
      failed: true,
    });
    return;
  }
  const start = slots ?? (local ? 1 : DEFAULT_CONCURRENCY);
  limiter.configure(provider, { start, max: start });
  options.log.info(
    `  ${provider}: ${slots ? `the engine reports ${slots} slot(s)` : local ? 'a local engine' : 'a remote server'}, ` +
      `${start} call(s) at a time (set llm.concurrency to change it)`,
  );
}
