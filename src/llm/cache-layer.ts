// The outermost layer of the LLM client: every answer a model gave is kept in the store's cache (namespace "llm"), keyed
// by model id, prompt version, prompt and settings — also answers that later fail validation, so a rebuild asks
// nothing. Errors (timeouts, 429, 5xx, aborts, size cap) throw past it and are never stored. The caller reports each
// answer's validation outcome with `settle()`, so `retryFailed` can re-ask exactly the answers that were unusable.
import { createHash } from 'node:crypto';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Middleware,
} from '@ai-sdk/provider';
import type { StageStore } from '../core/ports.js';
import type { Purpose, UsageMeter } from './usage.js';

export const LLM_CACHE_NAMESPACE = 'llm';
/** providerOptions namespace for our per-call tags; the innermost layer removes it before the provider sees it. */
export const TAGS_NAMESPACE = 'digest';

export interface CallTags {
  /** Names the call, so its caller can settle its answer. */
  callId?: string;
  /** Version of the prompt template: bumping it re-asks every call made with it. */
  promptVersion?: string;
}

type StoredResult = Pick<
  LanguageModelV3GenerateResult,
  'content' | 'finishReason' | 'usage' | 'providerMetadata' | 'warnings'
> & { response?: { id?: string; modelId?: string } };

export interface CachedAnswer {
  format: 2;
  result: StoredResult;
  /** null: not validated (or valid); false: the caller found it unusable. */
  valid: boolean | null;
  errors?: string[];
}

interface Answered {
  key: string;
  entry: CachedAnswer;
  cached: boolean;
  /** The model that gave the answer (with llm.fallbacks, maybe not the first one asked). */
  modelId: string;
}

export function tagsOf(params: LanguageModelV3CallOptions): CallTags {
  const tags = params.providerOptions?.[TAGS_NAMESPACE] as Record<string, unknown> | undefined;
  return {
    ...(typeof tags?.callId === 'string' ? { callId: tags.callId } : {}),
    ...(typeof tags?.promptVersion === 'string' ? { promptVersion: tags.promptVersion } : {}),
  };
}

export function withoutTags(params: LanguageModelV3CallOptions): LanguageModelV3CallOptions {
  if (!params.providerOptions?.[TAGS_NAMESPACE]) return params;
  const { [TAGS_NAMESPACE]: _tags, ...providerOptions } = params.providerOptions;
  return { ...params, providerOptions };
}

export function answerCacheKey(modelId: string, params: LanguageModelV3CallOptions): string {
  const {
    abortSignal: _signal,
    headers: _headers,
    includeRawChunks: _raw,
    ...settings
  } = withoutTags(params);
  const material = JSON.stringify([modelId, tagsOf(params).promptVersion ?? null, settings]);
  return createHash('sha256').update(material).digest('hex');
}

/** Which cache entry answered which call, until the caller settles it. */
export class AnswerLedger {
  private readonly answered = new Map<string, Answered>();

  constructor(private readonly store: Pick<StageStore, 'cache'>) {}

  remember(callId: string | undefined, answered: Answered): void {
    if (callId) this.answered.set(callId, answered);
  }

  wasCached(callId: string): boolean {
    return this.answered.get(callId)?.cached ?? false;
  }

  /** The model that answered `callId` (until it is settled), or undefined. */
  answeredBy(callId: string): string | undefined {
    return this.answered.get(callId)?.modelId;
  }

  /** Records whether the answer to `callId` was usable: `errors` empty means it was. */
  async settle(callId: string, errors: string[]): Promise<void> {
    const answered = this.answered.get(callId);
    this.answered.delete(callId);
    if (!answered) return;
    const valid = errors.length === 0;
    if (answered.entry.valid === false && valid) {
      await this.store.cache.put({
        namespace: LLM_CACHE_NAMESPACE,
        key: answered.key,
        value: { ...answered.entry, valid: true },
      });
    } else if (!valid && answered.entry.valid !== false) {
      const entry: CachedAnswer = { ...answered.entry, valid: false, errors: errors.slice(0, 20) };
      await this.store.cache.put({ namespace: LLM_CACHE_NAMESPACE, key: answered.key, value: entry });
    }
  }

  forget(callId: string): void {
    this.answered.delete(callId);
  }
}

export interface CacheLayerOptions {
  modelId: string;
  purpose: Purpose;
  store: Pick<StageStore, 'cache'>;
  ledger: AnswerLedger;
  meter: UsageMeter;
  /** Ask again even when an answer is cached (the new one replaces it). */
  refresh: boolean;
  /** Ask again only when the cached answer was settled as unusable. */
  retryFailed: boolean;
  /** Answer only from the cache; a miss fails the call without reaching the model (`digest list`). */
  cacheOnly?: boolean;
}

/** A call the cache could not answer on a cache-only LLM client. */
export class NotCachedError extends Error {
  override name = 'NotCachedError';
  constructor() {
    super('not in the cache (this run asks no model)');
  }
}

export function cacheLayer(options: CacheLayerOptions): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params }) {
      const key = answerCacheKey(options.modelId, params);
      const { callId } = tagsOf(params);
      if (!options.refresh) {
        const entry = await options.store.cache.get<CachedAnswer>(LLM_CACHE_NAMESPACE, key);
        if (entry?.format === 2 && !(options.retryFailed && entry.valid === false)) {
          options.meter.recordCacheHit(options.modelId, options.purpose);
          options.ledger.remember(callId, { key, entry, cached: true, modelId: options.modelId });
          return structuredClone(entry.result) as LanguageModelV3GenerateResult;
        }
      }
      if (options.cacheOnly) throw new NotCachedError();
      const result = await doGenerate();
      const entry: CachedAnswer = { format: 2, result: storable(result), valid: null };
      await options.store.cache.put({ namespace: LLM_CACHE_NAMESPACE, key, value: entry });
      options.ledger.remember(callId, { key, entry, cached: false, modelId: options.modelId });
      return result;
    },
  };
}

/** What a rebuild needs of an answer: no request body (it repeats the prompt), no headers, no dates. */
function storable(result: LanguageModelV3GenerateResult): StoredResult {
  return {
    content: result.content,
    finishReason: result.finishReason,
    usage: result.usage,
    warnings: [],
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
    ...(result.response
      ? {
          response: {
            ...(result.response.id ? { id: result.response.id } : {}),
            ...(result.response.modelId ? { modelId: result.response.modelId } : {}),
          },
        }
      : {}),
  };
}
