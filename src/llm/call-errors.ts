// Why one LLM call ended without an answer. None of these is cached: the next build asks again.
import { APICallError } from 'ai';
import { errorMessage, namedError } from '../core/errors.js';

/** The answer did not arrive in time (a hung or dripping server). */
export class CallTimeoutError extends namedError('CallTimeoutError') {}

/**
 * A call that timed out while other calls to the same provider were in flight: its time went to the server's
 * queue, not to the model. The provider's window shrinks and the call is asked again (no item lost to the line).
 */
export class SharedTimeoutError extends CallTimeoutError {
  override name = 'SharedTimeoutError';
}

/** The answer grew past the size cap (a huge, endless or compressed-bomb body). */
export class AnswerTooLargeError extends namedError('AnswerTooLargeError') {}

/** `maxCostUsd` is spent: no more calls this run. */
export class BudgetExceededError extends namedError('BudgetExceededError') {}

/** The provider stopped answering (timeouts in a row): the remaining calls fail at once instead of waiting too. */
export class ProviderUnavailableError extends namedError('ProviderUnavailableError') {}

/**
 * Nothing listens where the provider should be (connection refused, host unresolvable). Its message, with the address
 * and the fix, is said once; `brief` is what each call it turns away says.
 */
export class ProviderUnreachableError extends ProviderUnavailableError {
  override name = 'ProviderUnreachableError';
  constructor(
    message: string,
    readonly brief: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
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

export type ConnectionFailure = 'refused' | 'unresolvable' | 'blocked-port';

/**
 * A connection that could not be made at all: refused (nothing listens there), a host name that does not resolve,
 * or a port fetch will not connect to (6000, 9, 5060…: the browsers' blocked list; undici says "bad port" before
 * trying). Unlike a timeout or a 5xx, asking again cannot help this run.
 */
export function connectionFailure(error: unknown): ConnectionFailure | null {
  for (const entry of causeChain(error)) {
    const code = (entry as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'refused';
    if (code === 'ENOTFOUND') return 'unresolvable';
    if (entry instanceof Error && entry.message === 'bad port') return 'blocked-port';
    // Node's happy eyeballs (localhost → ::1 and 127.0.0.1) throws every attempt's error at once.
    if (entry instanceof AggregateError && entry.errors.length) {
      const inner = entry.errors.map(connectionFailure);
      if (inner.every((kind) => kind === 'refused')) return 'refused';
    }
  }
  return null;
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

/** One line saying why a call ended without an answer. */
export function describeFailure(error: unknown): string {
  const own =
    findCause(error, CallTimeoutError) ??
    findCause(error, AnswerTooLargeError) ??
    findCause(error, BudgetExceededError) ??
    findCause(error, ProviderUnavailableError);
  if (own instanceof CallTimeoutError) return `timed out (${own.message})`;
  if (own instanceof ProviderUnreachableError) return own.brief;
  if (own) return own.message;
  const message = errorMessage(error);
  if (isAbort(error)) return `timed out or aborted (${message})`;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** A short name for why a call failed, for counting in the build report ("timed out", "HTTP 503"). */
export function failureLabel(error: unknown): string {
  if (findCause(error, BudgetExceededError)) return 'cost limit reached';
  if (findCause(error, CallTimeoutError)) return 'timed out';
  if (findCause(error, ProviderUnavailableError)) return 'provider down';
  if (findCause(error, AnswerTooLargeError)) return 'answer too large';
  const status = statusOf(error);
  if (status !== undefined) return `HTTP ${status}`;
  if (causeChain(error).some((entry) => APICallError.isInstance(entry))) return 'no connection';
  return isAbort(error) ? 'timed out' : 'call failed';
}
