// The embeddings call itself, loaded by embeddings.ts only when a text is not cached yet: the AI SDK's `embedMany`
// on the provider registry's embedding model, through the same bounded fetch (size and time caps) and call limiter
// (concurrency, per-provider rate) as the LLM client; 429/5xx are retried by the SDK up to `llm.maxRetries`.
import { embedMany } from 'ai';
import { DEFAULT_CONCURRENCY, type LlmConfig } from '../config/llm-schema.js';
import { redactUrls } from '../core/urls.js';
import { createBoundedFetch } from './bounded-fetch.js';
import { AnswerTooLargeError, CallTimeoutError, findCause, statusOf } from './call-errors.js';
import { createCallLimiter } from './call-limiter.js';
import { costOf, priceOf } from './pricing.js';
import { createModelRegistry, isLocalModel, keySetting, missingSetting, providerOf } from './providers.js';
import type { UsageMeter } from './usage.js';

export interface EmbeddingCallOptions {
  modelId: string;
  llm: LlmConfig;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  meter?: Pick<UsageMeter, 'recordCall' | 'touch'>;
}

export interface EmbeddingAnswer {
  vectors: number[][];
  tokens: number;
}

/** What the model still needs to be called (its key, its server), in a few words, or null. */
export function missingCredential(
  modelId: string,
  options: Pick<EmbeddingCallOptions, 'llm' | 'env'>,
): string | null {
  const missing = missingSetting(modelId, {
    llm: options.llm,
    env: options.env,
  });
  return missing ? `${missing.setting} is not set` : null;
}

export function embeddingCaller(
  options: EmbeddingCallOptions,
): (texts: string[]) => Promise<EmbeddingAnswer> {
  const { modelId, llm } = options;
  const provider = providerOf(modelId);
  const fetch = createBoundedFetch({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    maxBytes: llm.maxResponseBytes,
    timeoutMs: llm.timeoutMs,
  });
  const registry = createModelRegistry({ llm, fetch, env: options.env });
  const model = registry.embeddingModel(modelId as `openai:${string}`);
  const limiter = createCallLimiter({
    concurrency: llm.concurrency ?? DEFAULT_CONCURRENCY,
    requestsPerMinute: llm.requestsPerMinute,
  });
  const local = isLocalModel(modelId, { llm, env: options.env });
  const price = priceOf(modelId, llm.prices, local);
  return (texts) =>
    limiter.run(
      provider,
      async () => {
        const started = Date.now();
        options.meter?.touch();
        const result = await embedMany({
          model,
          values: texts,
          maxRetries: llm.maxRetries,
          ...(options.signal ? { abortSignal: options.signal } : {}),
        });
        const tokens = result.usage?.tokens ?? 0;
        options.meter?.recordCall({
          model: modelId,
          tokensIn: tokens,
          tokensOut: 0,
          latencyMs: Date.now() - started,
          costUsd: costOf(price, tokens, 0),
          priced: price.known,
          purpose: 'embed',
        });
        return { vectors: result.embeddings, tokens };
      },
      options.signal,
    );
}

/** A failed call in a few words for the warning: "HTTP 500: …", "no complete answer within 90000 ms". */
export function describeFailure(
  error: unknown,
  options: Pick<EmbeddingCallOptions, 'modelId' | 'llm'>,
): string {
  const own = findCause(error, CallTimeoutError) ?? findCause(error, AnswerTooLargeError);
  if (own) return own.message;
  const status = statusOf(error);
  const message = redactUrls(error instanceof Error ? error.message : String(error))
    .split('\n')[0]
    ?.slice(0, 160);
  if (status === 401 || status === 403) {
    return `HTTP ${status}: the key was rejected; check ${keySetting(options.modelId, options.llm)}`;
  }
  if (status !== undefined && status >= 200 && status < 300) return `a malformed answer (${message})`;
  if (status !== undefined) return `HTTP ${status}${message ? `: ${message}` : ''}`;
  return message || 'no answer';
}
