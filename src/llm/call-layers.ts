// The layers under the cache, outermost first: retry (transport errors, with backoff honouring Retry-After; a call
// that timed out in the server's queue, at once) → limit (per-provider rate and adaptive concurrency; then the stop,
// breaker and budget checks, made when the slot is given; a timeout shrinks the window or feeds the breaker) →
// deadline (a timeout on each attempt, joined with the caller's and the LLM client's abort signals) → transport (usage
// and cost of every attempt that reached the provider; a rejected key becomes a CredentialError).
import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { ProviderName } from '../config/llm-schema.js';
import { withoutTags } from './cache-layer.js';
import { CallTimeoutError, findCause, isRetryable, SharedTimeoutError, statusOf } from './call-errors.js';
import type { CallLimiter } from './call-limiter.js';
import { costOf, type Price } from './pricing.js';
import type { Purpose, UsageMeter } from './usage.js';

/** What the layers share for one run: the meter, the abort state, the breaker. */
export interface LlmClientState {
  meter: UsageMeter;
  /** Aborted by the caller's signal (Ctrl-C) or by a stop (rejected key). */
  signal: AbortSignal;
  /** Throws when the LLM client was stopped or the caller aborted. */
  throwIfStopped(): void;
  breaker: ProviderBreaker;
  /** Called with the provider's 401/403 error; returns the error to throw. */
  credentialsRejected(modelId: string, status: number, error: unknown): Error;
  budgetExceeded(): Error | null;
  /**
   * For a connection refused or a host that does not resolve: opens the provider's breaker (said once, with the
   * address and the fix) and returns the error to throw. Null for any other failure.
   */
  unreachable(modelId: string, error: unknown): Error | null;
}

export interface ProviderBreaker {
  /** Throws when the provider was given up on this run. */
  check(provider: ProviderName): void;
  answered(provider: ProviderName): void;
  /** True once the provider has answered a call this run: only then can a timeout be its queue, not a dead server. */
  hasAnswered(provider: ProviderName): boolean;
  timedOut(provider: ProviderName, timeoutMs: number): void;
  open(provider: ProviderName, error: Error): void;
}

/** Times a call that timed out in the server's queue is asked again (each halves the window: 32 → 1 in 5). */
export const MAX_SHARED_TIMEOUT_RETRIES = 5;

export function retryLayer(options: {
  maxRetries: number;
  state: LlmClientState;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}): LanguageModelV3Middleware {
  const sleep = options.sleep ?? abortableSleep;
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ model, params }) {
      const signal = joined(params.abortSignal, options.state.signal);
      const call = { ...params, abortSignal: signal };
      let queued = 0;
      for (let attempt = 0; ; ) {
        try {
          return await model.doGenerate(call);
        } catch (error) {
          if (signal.aborted) throw error;
          // Timed out in the line, not by the model: asked again at once, in the smaller window; not a retry.
          if (error instanceof SharedTimeoutError && queued < MAX_SHARED_TIMEOUT_RETRIES) {
            queued += 1;
            continue;
          }
          if (attempt >= options.maxRetries || !isRetryable(error)) throw error;
          await sleep(retryDelayMs(error, attempt), signal);
          attempt += 1;
        }
      }
    },
  };
}

export function limitLayer(options: {
  provider: ProviderName;
  modelId: string;
  purpose: Purpose;
  limiter: CallLimiter;
  state: LlmClientState;
  timeoutMs: number;
  /** Awaited before the first call takes a slot: a local engine's slots are asked for once (llm/engine-slots.ts). */
  prepare?: () => Promise<void>;
}): LanguageModelV3Middleware {
  const { provider, state } = options;
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params }) {
      await options.prepare?.();
      return options.limiter.run(
        provider,
        async (slot, finish) => {
          const startedAt = Date.now();
          state.throwIfStopped();
          state.breaker.check(provider);
          // Checked when the call gets its slot, not when it was queued: calls in flight may finish past the limit.
          const budget = state.budgetExceeded();
          if (budget) throw budget;
          try {
            const result = await doGenerate();
            state.breaker.answered(provider);
            finish('answered');
            return result;
          } catch (error) {
            // Nothing listens there: no retry or later call can do better this run.
            const unreachable = state.unreachable(options.modelId, error);
            if (unreachable) throw unreachable;
            const timeout = params.abortSignal?.aborted ? undefined : findCause(error, CallTimeoutError);
            if (!timeout) throw error;
            // Other calls in flight mean a queue only at a provider that answers: a server that never answered
            // this run is hung, and its first timeout opens the breaker (a hung server costs one timeout).
            const queued = slot.shared && state.breaker.hasAnswered(provider);
            finish(queued ? 'timed-out' : 'other');
            state.meter.recordCall({
              model: options.modelId,
              purpose: options.purpose,
              tokensIn: 0,
              tokensOut: 0,
              costUsd: 0,
              latencyMs: Date.now() - startedAt,
              ...(queued ? { requeued: true } : { failed: true }),
            });
            if (queued) {
              throw new SharedTimeoutError(
                `${timeout.message}, with other calls to ${provider} in flight (it waited in the server's queue)`,
                { cause: error },
              );
            }
            state.breaker.timedOut(provider, options.timeoutMs);
            throw error;
          }
        },
        params.abortSignal,
      );
    },
  };
}

export function deadlineLayer(options: { timeoutMs: number }): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ model, params }) {
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new CallTimeoutError(`no complete answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      const signal = joined(params.abortSignal, deadline.signal);
      try {
        // Raced with the signal, so even a provider that ignores abortSignal cannot hold the call past its deadline.
        return await Promise.race([model.doGenerate({ ...params, abortSignal: signal }), rejection(signal)]);
      } catch (error) {
        if (deadline.signal.aborted && !params.abortSignal?.aborted) throw deadline.signal.reason;
        if (params.abortSignal?.aborted) throw params.abortSignal.reason ?? error;
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export function transportLayer(options: {
  modelId: string;
  purpose: Purpose;
  price: Price;
  state: LlmClientState;
  now?: () => number;
}): LanguageModelV3Middleware {
  const now = options.now ?? Date.now;
  const { meter } = options.state;
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ model, params }) {
      const startedAt = now();
      meter.touch();
      const base = { model: options.modelId, purpose: options.purpose };
      try {
        const result = await model.doGenerate(withoutTags(params));
        const tokensIn = result.usage.inputTokens.total ?? 0;
        const tokensOut = result.usage.outputTokens.total ?? 0;
        meter.recordCall({
          ...base,
          tokensIn,
          tokensOut,
          latencyMs: now() - startedAt,
          costUsd: costOf(options.price, tokensIn, tokensOut),
          priced: options.price.known,
        });
        return result;
      } catch (error) {
        // A timeout is recorded by the limit layer, which knows whether it was the server's queue.
        const signal = params.abortSignal;
        const timedOut =
          findCause(error, CallTimeoutError) ||
          (signal?.aborted && signal.reason instanceof CallTimeoutError);
        if (!timedOut) {
          meter.recordCall({
            ...base,
            tokensIn: 0,
            tokensOut: 0,
            latencyMs: now() - startedAt,
            costUsd: 0,
            failed: true,
          });
        }
        const status = statusOf(error);
        if (status === 401 || status === 403)
          throw options.state.credentialsRejected(options.modelId, status, error);
        throw error;
      }
    },
  };
}

/** A signal of this call's own (listeners added for one call never pile up on a run-long signal). */
function joined(...signals: (AbortSignal | undefined)[]): AbortSignal {
  return AbortSignal.any(signals.filter((signal): signal is AbortSignal => signal !== undefined));
}

function rejection(signal: AbortSignal): Promise<never> {
  const rejected = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  // The race may be over when the signal fires; that late rejection is nobody's business.
  rejected.catch(() => {});
  return rejected;
}

/** Retry-After (ms or seconds or a date) when the provider sent one under a minute, else 1 s, 2 s, 4 s… */
export function retryDelayMs(error: unknown, attempt: number): number {
  const backoff = 1_000 * 2 ** attempt;
  const headers = headersOf(error);
  if (!headers) return backoff;
  let ms: number | undefined;
  const retryAfterMs = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (!Number.isNaN(retryAfterMs)) ms = retryAfterMs;
  const retryAfter = headers['retry-after'];
  if (ms === undefined && retryAfter) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1_000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && ms < 60_000 ? ms : backoff;
}

function headersOf(error: unknown): Record<string, string> | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const headers = (current as { responseHeaders?: Record<string, string> }).responseHeaders;
    if (headers) return headers;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
