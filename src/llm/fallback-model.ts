// `llm.fallbacks`: a call whose provider is down goes to the next model. Each model of the chain is its own whole
// stack (cache, retry, limit, deadline, transport: its own cost and tokens), so a call reaches the next model only
// after the first has had its retries. "Down" is a 5xx or 429 after the retries, a refused connection, a timeout or
// an open breaker; a model down with a 5xx, 429, refused connection or open breaker is skipped for the rest of the run
// (said once). A timeout moves only that call on: the breaker decides whether the provider is gone. Anything else (a
// bad request, the cost limit, a rejected key, an abort) is the call's own failure, not the provider's. When every
// model is down the call fails and the item is written extractively, last.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import type { Logger } from '../core/ports.js';
import { NotCachedError } from './cache-layer.js';
import {
  CallTimeoutError,
  causeChain,
  describeFailure,
  failureLabel,
  findCause,
  isAbort,
  ProviderUnavailableError,
  statusOf,
} from './call-errors.js';

export interface ChainedModel {
  modelId: string;
  model: LanguageModelV3;
}

type Verdict = 'down' | 'this-call' | 'own';

/** Whether an error says the provider is down (skip it), that this call should try the next model, or neither. */
export function downVerdict(error: unknown): Verdict {
  const chain = causeChain(error);
  if (chain.some((entry) => isAbort(entry) && !(entry instanceof CallTimeoutError))) return 'own';
  if (findCause(error, ProviderUnavailableError)) return 'down';
  // A cache-only LLM client (digest list): the answer may be cached under the next model, the one that wrote it.
  if (findCause(error, NotCachedError) || findCause(error, CallTimeoutError)) return 'this-call';
  const status = statusOf(error);
  if (status === 429 || (status !== undefined && status >= 500)) return 'down';
  const refused = chain.some(
    (entry) => APICallError.isInstance(entry) && entry.statusCode === undefined && entry.isRetryable,
  );
  return refused ? 'down' : 'own';
}

/** The chain as one model: the first that is up answers. A chain of one is that model itself. */
export function fallbackModel({
  chain,
  down,
  log,
  onStandIn,
}: {
  chain: ChainedModel[];
  down: Map<string, Error>;
  log: Pick<Logger, 'warn'>;
  onStandIn?: (modelId: string) => void;
}): LanguageModelV3 {
  const [first] = chain;
  if (!first) throw new Error('fallbackModel: empty chain');
  if (chain.length === 1) return first.model;
  return {
    specificationVersion: 'v3',
    provider: first.model.provider,
    modelId: first.model.modelId,
    supportedUrls: first.model.supportedUrls,
    async doGenerate(params: LanguageModelV3CallOptions) {
      let last: unknown;
      for (const [index, entry] of chain.entries()) {
        const gone = down.get(entry.modelId);
        if (gone) {
          last = gone;
          continue;
        }
        try {
          const result = await entry.model.doGenerate(params);
          if (index > 0) onStandIn?.(entry.modelId);
          return result;
        } catch (error) {
          const verdict = downVerdict(error);
          if (verdict === 'own' || params.abortSignal?.aborted) throw error;
          last = error;
          if (verdict === 'down') markDown(entry.modelId, error, chain[index + 1]?.modelId);
        }
      }
      throw last ?? new ProviderUnavailableError('every model of the chain is down');
    },
    doStream() {
      throw new Error('the model llmClient does not stream');
    },
  };

  function markDown(modelId: string, error: unknown, next: string | undefined): void {
    if (down.has(modelId)) return;
    const label = failureLabel(error);
    const message = describeFailure(error);
    const reason = message.includes(label) ? message : `${label}: ${message}`;
    down.set(
      modelId,
      new ProviderUnavailableError(`${modelId} is down this run (${reason})`, { cause: error }),
    );
    log.warn(
      `${modelId} is down (${reason}): ${next ? `the remaining calls go to ${next}` : 'no fallback model is left'}.`,
    );
  }
}
