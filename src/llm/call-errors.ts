// Why one LLM call ended without an answer. None of these is cached: the next build asks again.
import { APICallError } from 'ai';

/** The answer did not arrive in time (a hung or dripping server). */
export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError';
}

/** The answer grew past the size cap (a huge, endless or compressed-bomb body). */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
}

/** `maxCostUsd` is spent: no more calls this run. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
}

/** The provider stopped answering (timeouts in a row): the remaining calls fail at once instead of waiting too. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

/** The errors an SDK error wraps, outermost first (the SDK wraps ours in APICallError / RetryError). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export function findCause<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  return causeChain(error).find((entry): entry is T => entry instanceof type);
}

/** HTTP status of a provider error, when the provider answered with one. */
export function statusOf(error: unknown): number | undefined {
  for (const entry of causeChain(error)) {
    if (APICallError.isInstance(entry) && entry.statusCode !== undefined) return entry.statusCode;
  }
  return undefined;
}

/** A transport error worth another attempt: 408/409/429/5xx, or the connection failed. Never our own limits. */
export function isRetryable(error: unknown): boolean {
  const chain = causeChain(error);
  if (chain.some((entry) => isOwnLimit(entry) || isAbort(entry))) return false;
  return chain.some((entry) => APICallError.isInstance(entry) && entry.isRetryable);
}

function isOwnLimit(error: unknown): boolean {
  return (
    error instanceof CallTimeoutError ||
    error instanceof AnswerTooLargeError ||
    error instanceof BudgetExceededError ||
    error instanceof ProviderUnavailableError
  );
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
