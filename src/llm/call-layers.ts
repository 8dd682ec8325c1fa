// The layers under the cache, outermost first: retry (transport errors, with backoff honouring Retry-After) →
// limit (per-provider rate and concurrency; then the stop, breaker and budget checks, made when the slot is given) →
// deadline (a timeout on each attempt, joined with the caller's and the road's abort signals) → transport (usage
// and cost of every attempt that reached the provider; a rejected key becomes a CredentialError).
import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { ProviderName } from '../config/llm-schema.js';
import { withoutTags } from './cache-layer.js';
import { CallTimeoutError, isRetryable, statusOf } from './call-errors.js';
import type { CallLimiter } from './call-limiter.js';
import { costOf, type Price } from './pricing.js';
import type { Purpose, UsageMeter } from './usage.js';

/** What the layers share for one run: the meter, the abort state, the breaker. */
export interface RoadState {
  meter: UsageMeter;
  /** Aborted by the caller's signal (Ctrl-C) or by a stop (rejected key). */
  signal: AbortSignal;
  /** Throws when the road was stopped or the caller aborted. */
  throwIfStopped(): void;
  breaker: ProviderBreaker;
  /** Called with the provider's 401/403 error; returns the error to throw. */
  credentialsRejected(modelId: string, status: number, error: unknown): Error;
  budgetExceeded(): Error | null;
}

export interface ProviderBreaker {
  /** Throws when the provider was given up on this run. */
  check(provider: ProviderName): void;
  answered(provider: ProviderName): void;
  timedOut(provider: ProviderName, timeoutMs: number): void;
  open(provider: ProviderName, error: Error): void;
}

export function retryLayer(options: {
  maxRetries: number;
  state: RoadState;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}): LanguageModelV3Middleware {
  const sleep = options.sleep ?? abortableSleep;
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ model, params }) {
      const signal = joined(params.abortSignal, options.state.signal);
      const call = { ...params, abortSignal: signal };
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await model.doGenerate(call);
        } catch (error) {
          if (attempt >= options.maxRetries || !isRetryable(error) || signal.aborted) throw error;
          await sleep(retryDelayMs(error, attempt), signal);
        }
      }
    },
  };
}

export function limitLayer(options: {
  provider: ProviderName;
  limiter: CallLimiter;
  state: RoadState;
}): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    wrapGenerate({ doGenerate, params }) {
      return options.limiter.run(
        options.provider,
        async () => {
          options.state.throwIfStopped();
          options.state.breaker.check(options.provider);
          // Checked when the call gets its slot, not when it was queued: calls in flight may finish past the limit.
          const budget = options.state.budgetExceeded();
          if (budget) throw budget;
          return doGenerate();
        },
        params.abortSignal,
      );
    },
  };
}

export function deadlineLayer(options: {
  provider: ProviderName;
  timeoutMs: number;
  state: RoadState;
}): LanguageModelV3Middleware {
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
        const result = await Promise.race([
          model.doGenerate({ ...params, abortSignal: signal }),
          rejection(signal),
        ]);
        options.state.breaker.answered(options.provider);
        return result;
      } catch (error) {
        if (deadline.signal.aborted && !params.abortSignal?.aborted) {
          options.state.breaker.timedOut(options.provider, options.timeoutMs);
          throw deadline.signal.reason;
        }
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
  state: RoadState;
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
        meter.recordCall({
          ...base,
          tokensIn: 0,
          tokensOut: 0,
          latencyMs: now() - startedAt,
          costUsd: 0,
          failed: true,
        });
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
