// The one LLM client: every call a build makes (triage, item, repair, check, title/intro) goes through one model stack
// built with the AI SDK's own middleware (model-stack.ts). Outermost first: cache → retry → limit (rate, adaptive
// concurrency, budget, breaker) → deadline → schema → transport (usage, cost, rejected keys) → the provider, whose
// fetch caps time and size. With `llm.fallbacks`, a purpose's model is a chain of such stacks (fallback-model.ts).
import { type LlmConfig, llmSchema, modelIdSchema } from '../config/llm-schema.js';
import { ConfigError, CredentialError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { createBreaker } from './breaker.js';
import {
  BudgetExceededError,
  type ConnectionFailure,
  connectionFailure,
  ProviderUnavailableError,
  ProviderUnreachableError,
} from './call-errors.js';
import type { LlmClientState } from './call-layers.js';
import {
  type LlmClient,
  type LlmClientModel,
  type LlmClientOptions,
  type LlmProgress,
  type LlmRun,
  modelIds,
  noModelNotice,
  quietLlmClient,
  startLlmClient,
} from './client-types.js';
import { fallbackModel } from './fallback-model.js';
import { createModelStacks, type ModelStacks } from './model-stack.js';
import {
  baseUrlSetting,
  endpointOf,
  keySetting,
  missingSetting,
  providerOf,
  type ResolveModelOptions,
} from './providers.js';
import { type Purpose, tokensPerSecondOf, type UsageMeter, type UsageReport } from './usage.js';

export type {
  LlmClient,
  LlmClientModel,
  LlmClientOptions,
  LlmProgress,
  LlmRun,
} from './client-types.js';

const BUILD_WITHOUT_KEY =
  'build with --offline, or set "llm": { "fallback": "extractive" } to write extractively without it';

/**
 * Builds the LLM client for one run. Throws ConfigError before any work when a configured model lacks its key or
 * server, unless `offline` or `llm.fallback: "extractive"` (then the models are null and `notice` says why).
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const llm = llmSchema.parse(options.llm);
  const run = options.run ?? {};
  const { base, stop, ledger } = startLlmClient(options, llm);
  if (run.modelOverride && !run.offline) validateId(run.modelOverride, '--model');
  const quiet = noModelNotice(llm, run);
  if (quiet) return quietLlmClient(base, quiet);

  const ids = modelIds(llm, run);
  const resolve = { llm, env: options.env };
  const checked = checkSettings(llm, ids, { ...run, resolve });
  if ('unusable' in checked) return quietLlmClient(base, checked.unusable);

  const { meter, signal, throwIfStopped } = base;
  const state = clientState({
    llm,
    run: { meter, signal, throwIfStopped, stop, log: options.log, resolve },
    maxCostUsd: run.maxCostUsd ?? llm.maxCostUsd,
    withoutKey: run.withoutKey,
  });
  const stacks = createModelStacks({
    llm,
    resolve,
    cache: {
      store: options.store,
      ledger,
      refresh: run.refresh ?? false,
      retryFailed: run.retryFailed ?? false,
      cacheOnly: run.cacheOnly ?? false,
    },
    state,
    log: options.log,
    ...(options.engine ? { engine: options.engine } : {}),
  });
  const build = purposeModels({ llm, ids, fallbacks: checked.fallbacks, stacks, meter, log: options.log });
  const wrapped = new Map<Purpose, LlmClientModel | null>();
  return {
    ...base,
    notice: checked.notices.length ? checked.notices.join(' ') : null,
    model(purpose) {
      if (!wrapped.has(purpose)) wrapped.set(purpose, build(purpose));
      return wrapped.get(purpose) ?? null;
    },
    progress: () => progressOf(stacks.windows(), meter.snapshot()),
  };
}

/** The model for a purpose: its id then the fallbacks, each in the whole stack, tried in that order. */
function purposeModels(parts: {
  llm: LlmConfig;
  ids: Record<Purpose, string | undefined>;
  fallbacks: string[];
  stacks: ModelStacks;
  meter: UsageMeter;
  log: Logger;
}): (purpose: Purpose) => LlmClientModel | null {
  const { llm, ids, fallbacks, stacks, meter, log } = parts;
  // Shared by every purpose: a model found down while writing is not asked again for the title or a check.
  const down = new Map<string, Error>();
  return (purpose) => {
    const modelId = ids[purpose];
    if (!modelId) return null;
    const models = [...new Set([modelId, ...fallbacks])];
    const chain = models.map((id) => ({ modelId: id, model: stacks.wrap(id, purpose) }));
    return {
      modelId,
      models,
      purpose,
      model: fallbackModel({ chain, down, log, onStandIn: () => meter.recordStandIn() }),
      temperature: purpose === 'triage' ? 0 : llm.temperature,
      maxOutputTokens: llm.maxOutputTokens,
    };
  };
}

/**
 * Which configured models can be called: a missing key or server stops the build (ConfigError naming the setting),
 * or with `llm.fallback: "extractive"` turns that model off with a notice (the writer's: the whole LLM client).
 */
function checkSettings(
  llm: LlmConfig,
  ids: Record<Purpose, string | undefined>,
  options: Pick<LlmRun, 'cacheOnly' | 'withoutKey'> & { resolve: ResolveModelOptions },
): { unusable: string } | { notices: string[]; fallbacks: string[] } {
  // A cache-only LLM client never reaches a provider, so it needs no key.
  const missingFor = (modelId: string) =>
    options.cacheOnly ? null : missingSetting(modelId, options.resolve);
  const notices: string[] = [];
  for (const modelId of new Set([ids.write, ids.check, ids.triage].filter((id): id is string => !!id))) {
    const missing = missingFor(modelId);
    if (!missing) continue;
    if (llm.fallback !== 'extractive') {
      throw new ConfigError(
        `Cannot use "${modelId}": it ${missing.need}. Set ${missing.setting}, or ${options.withoutKey ?? BUILD_WITHOUT_KEY}.`,
        [{ path: missing.setting, message: 'not set' }],
      );
    }
    if (modelId === ids.write) {
      return {
        unusable: `Cannot use the LLM writer: ${missing.message}. Writing with the extractive writer instead (llm.fallback is "extractive").`,
      };
    }
    if (ids.check === modelId) notices.push(`Faithfulness check off: ${missing.message}.`);
    if (ids.check === modelId) ids.check = undefined;
    if (ids.triage === modelId) ids.triage = ids.write;
  }
  const fallbacks: string[] = [];
  for (const modelId of llm.fallbacks) {
    const missing = missingFor(modelId);
    if (!missing) fallbacks.push(modelId);
    else if (llm.fallback === 'extractive') notices.push(`Fallback model skipped: ${missing.message}.`);
    else {
      throw new ConfigError(
        `Cannot use the fallback model: ${missing.message}. Set ${missing.setting}, or remove it from llm.fallbacks.`,
        [{ path: 'llm.fallbacks', message: `${modelId}: ${missing.setting} not set` }],
      );
    }
  }
  return { notices, fallbacks };
}

/** What the layers share: the meter, the abort state, the breaker, and what a rejected key or the budget does. */
function clientState({
  llm,
  run,
  maxCostUsd,
  withoutKey,
}: {
  llm: LlmConfig;
  run: Pick<LlmClientState, 'meter' | 'signal' | 'throwIfStopped'> & {
    stop: AbortController;
    log: Logger;
    resolve: ResolveModelOptions;
  };
  maxCostUsd: number | undefined;
  withoutKey: string | undefined;
}): LlmClientState {
  // Every opening is one line: the calls it turns away say nothing more (structured-call.ts).
  const breaker = createBreaker((error) => run.log.warn(error.message));
  const { meter, stop } = run;
  return {
    meter,
    signal: run.signal,
    throwIfStopped: run.throwIfStopped,
    breaker,
    credentialsRejected(modelId, status, cause) {
      const provider = providerOf(modelId);
      const setting = keySetting(modelId, llm);
      const message = `${provider} rejected the key for "${modelId}" (HTTP ${status}). Check ${setting}, or ${withoutKey ?? 'build with --offline'}.`;
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
    unreachable(modelId, error) {
      const kind = connectionFailure(error);
      if (!kind) return null;
      const { message, brief } = unreachableMessage(modelId, kind, run.resolve);
      const down = new ProviderUnreachableError(message, brief, { cause: error });
      breaker.open(providerOf(modelId), down);
      return down;
    },
    budgetExceeded() {
      if (maxCostUsd === undefined || meter.costUsd < maxCostUsd) return null;
      meter.recordBudgetExhausted();
      return new BudgetExceededError(`cost limit of $${maxCostUsd} reached`);
    },
  };
}

/** The one line a dead server gets: who, where, and what to do (start it, point the base URL at it, or ask doctor). */
function unreachableMessage(
  modelId: string,
  kind: ConnectionFailure,
  resolve: ResolveModelOptions,
): { message: string; brief: string } {
  const provider = providerOf(modelId);
  const address = endpointOf(modelId, resolve);
  if (kind === 'blocked-port') {
    return {
      message:
        `${modelId}: ${address} is on a port browsers and fetch refuse (bad port); no more calls to ${provider} ` +
        `this run. Fix: pick another port for the server and set ${baseUrlSetting(modelId)} to it.`,
      brief: `${provider} on a refused port at ${address}`,
    };
  }
  const what =
    kind === 'refused'
      ? `nothing listens at ${address} (connection refused)`
      : `the host of ${address} does not resolve`;
  const start = provider === 'ollama' ? 'start the server (ollama serve)' : "start the model's server";
  return {
    message:
      `${modelId}: ${what}; no more calls to ${provider} this run. ` +
      `Fix: ${start}, or set ${baseUrlSetting(modelId)} to where it listens; \`./digest doctor\` checks it.`,
    brief: `${provider} unreachable at ${address}`,
  };
}

/** Calls running and waiting over every provider, and each model's output speed so far. */
function progressOf(
  windows: Partial<Record<string, { running: number; waiting: number }>>,
  usage: UsageReport,
): LlmProgress {
  let running = 0;
  let waiting = 0;
  for (const window of Object.values(windows)) {
    running += window?.running ?? 0;
    waiting += window?.waiting ?? 0;
  }
  const tokensPerSecond: Record<string, number> = {};
  for (const [modelId, model] of Object.entries(usage.byModel)) {
    const speed = tokensPerSecondOf(model);
    if (speed !== null) tokensPerSecond[modelId] = speed;
  }
  return { running, waiting, tokensPerSecond };
}

function validateId(modelId: string, path: string): void {
  const parsed = modelIdSchema.safeParse(modelId);
  if (parsed.success) return;
  throw new ConfigError(`Invalid model "${modelId}": ${parsed.error.issues[0]?.message ?? 'bad id'}.`, [
    { path, message: 'must be "provider:model"' },
  ]);
}
