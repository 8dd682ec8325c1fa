// One structured call on the LLM client: generateText + Output.object through a LlmClientModel, then the caller's rules. The
// outcome says what happened instead of throwing for a model or network failure, so callers repair or fall back;
// only what must stop the run (a rejected key, the caller's abort) is thrown.
import { randomUUID } from 'node:crypto';
import { asSchema, generateText, type ModelMessage, NoObjectGeneratedError, Output } from 'ai';
import type { z } from 'zod';
import { CredentialError } from '../core/errors.js';
import { TAGS_NAMESPACE } from './cache-layer.js';
import {
  BudgetExceededError,
  describeFailure,
  failureLabel,
  findCause,
  ProviderUnavailableError,
} from './call-errors.js';
import type { LlmClient, LlmClientModel } from './client.js';
import { providerOf } from './providers.js';
import { maxTokensFor } from './token-bound.js';

export interface StructuredRequest<T> {
  schema: z.ZodType<T>;
  schemaName: string;
  promptVersion: string;
  system: string;
  messages: ModelMessage[];
  /** Rules beyond the schema; errors are sentences the model can act on in a repair. */
  validate?: (value: T) => string[];
  signal?: AbortSignal;
}

/** `modelId`: the model that answered — the one asked, or with `llm.fallbacks` the one that stood in for it. */
export type CallOutcome<T> =
  | { kind: 'ok'; value: T; text: string; cached: boolean; modelId: string }
  /** The model answered, but not with JSON of the schema (no value) or against the rules (value). */
  | { kind: 'invalid'; value?: T; text: string; errors: string[]; cached: boolean; modelId: string }
  /** No usable answer: HTTP error after retries, timeout, size cap, or the cost limit. `label`: "timed out", "HTTP 503"… */
  | { kind: 'failed'; error: string; label: string; budget: boolean };

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

/** The call's max_tokens: what the schema allows where a grammar enforces it (token-bound.ts), else the config's. */
async function maxOutputTokensOf(model: LlmClientModel, schema: z.ZodType): Promise<number> {
  const json = await asSchema(schema).jsonSchema;
  return maxTokensFor(providerOf(model.modelId), json, model.maxOutputTokens);
}

export async function callStructured<T>(
  llmClient: LlmClient,
  model: LlmClientModel,
  request: StructuredRequest<T>,
): Promise<CallOutcome<T>> {
  const callId = randomUUID();
  llmClient.throwIfStopped();
  try {
    const result = await generateText({
      model: model.model,
      system: request.system,
      messages: request.messages,
      output: Output.object({ schema: request.schema, name: request.schemaName }),
      temperature: model.temperature,
      maxOutputTokens: await maxOutputTokensOf(model, request.schema),
      // The LLM client retries transport errors itself, each attempt through its limiter and deadline.
      maxRetries: 0,
      ...(request.signal ? { abortSignal: request.signal } : {}),
      providerOptions: { [TAGS_NAMESPACE]: { callId, promptVersion: request.promptVersion } },
    });
    const value = result.output as T;
    const cached = llmClient.wasCached(callId);
    const modelId = llmClient.answeredBy(callId) ?? model.modelId;
    const errors = request.validate?.(value) ?? [];
    await llmClient.settle(callId, errors);
    return errors.length
      ? { kind: 'invalid', value, text: result.text, errors, cached, modelId }
      : { kind: 'ok', value, text: result.text, cached, modelId };
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      const cached = llmClient.wasCached(callId);
      const modelId = llmClient.answeredBy(callId) ?? model.modelId;
      const found = schemaErrors(error.text, request.schema);
      const errors = found.length ? found : [`the answer did not match the schema: ${error.message}`];
      await llmClient.settle(callId, errors);
      return { kind: 'invalid', text: error.text ?? '', errors, cached, modelId };
    }
    llmClient.forget(callId);
    const credential = findCause(error, CredentialError);
    if (credential) throw credential;
    llmClient.throwIfStopped();
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    const message = describeFailure(error);
    const budget = findCause(error, BudgetExceededError) !== undefined;
    // A provider given up on was said once, when its breaker opened: the calls it turns away stay quiet.
    const said = budget || findCause(error, ProviderUnavailableError) !== undefined;
    if (!said) llmClient.log.warn(`LLM call to ${model.modelId} failed: ${message}`);
    return { kind: 'failed', error: message, label: failureLabel(error), budget };
  }
}
