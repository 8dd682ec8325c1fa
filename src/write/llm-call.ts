// One structured LLM call: cache → budget → limiter → generateText + Output.object → usage. Never throws for a
// model or network failure: the outcome says what happened so the caller can repair or fall back.
import { createHash } from 'node:crypto';
import { generateText, type LanguageModel, type ModelMessage, NoObjectGeneratedError, Output } from 'ai';
import type { z } from 'zod';
import type { PriceTable } from '../config/llm-schema.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { Store } from '../store/types.js';
import type { CallLimiter } from './call-limiter.js';
import { costOf, priceOf } from './pricing.js';
import { providerOf } from './providers.js';
import type { UsageMeter } from './usage.js';

export const CACHE_NAMESPACE = 'llm';

export interface CallEnvironment {
  store: Store;
  meter: UsageMeter;
  limiter: CallLimiter;
  log: Logger;
  /** Ignore cached answers (still store new ones). */
  refresh: boolean;
  prices: PriceTable;
  maxCostUsd?: number;
  timeoutMs: number;
  maxRetries: number;
  temperature: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export interface StructuredRequest<T> {
  model: LanguageModel;
  modelId: string;
  schema: z.ZodType<T>;
  schemaName: string;
  promptVersion: string;
  system: string;
  messages: ModelMessage[];
}

export type CallOutcome<T> =
  | { kind: 'ok'; value: T; text: string; cached: boolean }
  /** The model answered, but not with JSON of the schema. `errors` are for the repair prompt. */
  | { kind: 'invalid'; text: string; errors: string[]; cached: boolean }
  /** No usable answer: HTTP error after retries, timeout, or the cost limit. */
  | { kind: 'failed'; error: string; budget: boolean };

type CachedAnswer =
  | { kind: 'ok'; value: unknown; text: string }
  | { kind: 'invalid'; text: string; errors: string[] };

export function cacheKey(request: StructuredRequest<unknown>, env: CallEnvironment): string {
  const settings = {
    temperature: env.temperature,
    maxOutputTokens: env.maxOutputTokens,
    schema: request.schemaName,
  };
  const material = JSON.stringify([
    request.modelId,
    request.promptVersion,
    settings,
    request.system,
    request.messages,
  ]);
  return createHash('sha256').update(material).digest('hex');
}

/** Parses the raw text the way Output.object does, to give the repair prompt precise errors. */
export function schemaErrors(text: string | undefined, schema: z.ZodType): string[] {
  if (!text?.trim()) return ['the answer was empty; answer with the JSON object'];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ['the answer is not valid JSON; answer with the JSON object only, no other text'];
  }
  const result = schema.safeParse(parsed);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

export async function callStructured<T>(
  request: StructuredRequest<T>,
  env: CallEnvironment,
): Promise<CallOutcome<T>> {
  const key = cacheKey(request as StructuredRequest<unknown>, env);
  if (!env.refresh) {
    const cached = await env.store.cacheGet<CachedAnswer>(CACHE_NAMESPACE, key);
    if (cached) {
      env.meter.recordCacheHit(request.modelId);
      return cached.kind === 'ok'
        ? { kind: 'ok', value: cached.value as T, text: cached.text, cached: true }
        : { ...cached, cached: true };
    }
  }
  return env.limiter.run(providerOf(request.modelId), () => {
    // Checked when the call gets its slot, not when it was queued: calls already in flight may finish past the limit.
    if (env.maxCostUsd !== undefined && env.meter.costUsd >= env.maxCostUsd) {
      env.meter.recordBudgetExhausted();
      const failed: CallOutcome<T> = {
        kind: 'failed',
        error: `cost limit of $${env.maxCostUsd} reached`,
        budget: true,
      };
      return Promise.resolve(failed);
    }
    return callModel(request, env, key);
  });
}

async function callModel<T>(
  request: StructuredRequest<T>,
  env: CallEnvironment,
  key: string,
): Promise<CallOutcome<T>> {
  const price = priceOf(request.modelId, env.prices);
  env.meter.touch();
  const startedAt = Date.now();
  const record = (
    usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
  ) => {
    const tokensIn = usage?.inputTokens ?? 0;
    const tokensOut = usage?.outputTokens ?? 0;
    env.meter.recordCall({
      model: request.modelId,
      tokensIn,
      tokensOut,
      latencyMs: Date.now() - startedAt,
      costUsd: costOf(price, tokensIn, tokensOut),
      priced: price.known,
    });
  };
  try {
    const result = await generateText({
      model: request.model,
      system: request.system,
      messages: request.messages,
      output: Output.object({ schema: request.schema, name: request.schemaName }),
      temperature: env.temperature,
      maxOutputTokens: env.maxOutputTokens,
      maxRetries: env.maxRetries,
      timeout: env.timeoutMs,
      ...(env.signal ? { abortSignal: env.signal } : {}),
    });
    record(result.usage);
    const answer: CachedAnswer = { kind: 'ok', value: result.output, text: result.text };
    await env.store.cachePut(CACHE_NAMESPACE, key, answer);
    return { kind: 'ok', value: result.output as T, text: result.text, cached: false };
  } catch (error) {
    const invalid = asInvalidOutput(error);
    if (invalid) {
      record(invalid.usage);
      const errors = schemaErrors(invalid.text, request.schema);
      const answer: CachedAnswer = {
        kind: 'invalid',
        text: invalid.text ?? '',
        errors: errors.length ? errors : [`the answer did not match the schema: ${invalid.message}`],
      };
      await env.store.cachePut(CACHE_NAMESPACE, key, answer);
      return { ...answer, cached: false };
    }
    env.meter.recordCall({
      model: request.modelId,
      tokensIn: 0,
      tokensOut: 0,
      latencyMs: Date.now() - startedAt,
      costUsd: 0,
      failed: true,
    });
    const message = describeFailure(error);
    env.log.warn(`LLM call to ${request.modelId} failed: ${message}`);
    return { kind: 'failed', error: message, budget: false };
  }
}

interface InvalidOutputError {
  text?: string;
  message: string;
  usage?: { inputTokens?: number | undefined; outputTokens?: number | undefined };
}

function asInvalidOutput(error: unknown): InvalidOutputError | null {
  return NoObjectGeneratedError.isInstance(error) ? (error as InvalidOutputError) : null;
}

function describeFailure(error: unknown): string {
  const message = errorMessage(error);
  if (error instanceof Error && (error.name === 'TimeoutError' || /timeout|aborted/i.test(message))) {
    return `timed out or aborted (${message})`;
  }
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
