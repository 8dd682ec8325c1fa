// Text embeddings for learned taste: every vector is kept in the store's cache (namespace `embedding`, keyed by the
// model and the text), so each text is embedded once per model and a rebuild makes no call. Texts not cached yet go
// to the model in batches through the AI SDK's `embedMany` (_embedding-call.ts), loaded only then: an offline build,
// `digest list` or a rebuild never loads the SDK for taste. Any failure is an EmbeddingError saying why in a few
// words; the caller falls back (taste is a ranking signal, not worth stopping a build for).
import { createHash } from 'node:crypto';
import type { LlmConfig } from '../config/llm-schema.js';
import type { StageStore } from '../core/ports.js';
import type { UsageMeter } from './usage.js';

export const EMBEDDING_CACHE_NAMESPACE = 'embedding';
/** Texts per call: small enough that 3,072-dimension vectors stay well under `llm.maxResponseBytes`. */
export const EMBEDDING_BATCH_SIZE = 64;
/** Taste reads half a year of history: a vector unused for longer is dropped from the cache (and re-asked if needed). */
const EMBEDDING_TTL_SECONDS = 400 * 86_400;

/** Why embeddings could not be had this run: a missing key, an HTTP error, a timeout, a malformed answer. */
export class EmbeddingError extends Error {
  override name = 'EmbeddingError';
}

export interface Embedder {
  readonly modelId: string;
  /** One unit-length vector per text, in order; rejects with EmbeddingError (or the caller's abort). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface EmbedderOptions {
  modelId: string;
  llm: LlmConfig;
  store: Pick<StageStore, 'cache'>;
  /** Where API keys are read from; without it no key is set (cached answers and local models still work). */
  env?: NodeJS.ProcessEnv;
  /** Vectors from the cache only (`digest list`, `--offline`): a text not embedded yet is an EmbeddingError. */
  cacheOnly?: boolean;
  signal?: AbortSignal;
  /** The fetch under the size and time caps (tests, proxies). */
  fetch?: typeof fetch;
  /** Where calls are counted and when they stop. */
  budget?: EmbedBudget;
}

export interface EmbedBudget {
  /** Where calls are counted (the build's usage table); cache hits are not, nor failures (they fall back). */
  meter?: Pick<UsageMeter, 'recordCall' | 'touch' | 'costUsd'>;
  /** The run's cost limit (`--max-cost`, `llm.maxCostUsd`): once the meter reaches it, no call is made. */
  maxCostUsd?: number;
}

interface CachedVector {
  /** Float32 little-endian, base64: 5⅓ characters a number, where JSON takes 10 to 20. */
  f32: string;
}

export function createEmbedder(options: EmbedderOptions): Embedder {
  const { modelId, store } = options;
  const keyOf = (text: string) => createHash('sha256').update(`${modelId}\n${text}`).digest('hex');
  return {
    modelId,
    async embed(texts) {
      const keys = texts.map(keyOf);
      const unique = new Map(keys.map((key, index) => [key, texts[index] ?? '']));
      const vectors = await cachedVectors(store, [...unique.keys()]);
      const missing = [...unique].filter(([key]) => !vectors.has(key));
      if (missing.length > 0) {
        if (options.cacheOnly) {
          throw new EmbeddingError(
            `${missing.length} text(s) not embedded yet, and this run uses stored vectors only`,
          );
        }
        // The model's answers today decide the size: one updated in place (a new Ollama build under the same name)
        // makes the vectors it gave before stale, and those are embedded again rather than failing every run.
        const shape: { dimensions: number | undefined } = { dimensions: undefined };
        const keep = async (key: string, vector: Float32Array) => {
          vectors.set(key, vector);
          await store.cache.put({
            namespace: EMBEDDING_CACHE_NAMESPACE,
            key,
            value: encode(vector),
            ttlSeconds: EMBEDDING_TTL_SECONDS,
          });
        };
        await embedMissing({ options, missing, shape, keep });
        const stale = [...unique].filter(([key]) => vectors.get(key)!.length !== shape.dimensions);
        if (stale.length > 0) await embedMissing({ options, missing: stale, shape, keep });
      }
      const result = keys.map((key) => vectors.get(key)!);
      const dimensions = result[0]?.length ?? 0;
      const odd = result.find((vector) => vector.length !== dimensions);
      if (odd) throw new EmbeddingError(`stored vectors of ${odd.length} and ${dimensions} dimensions`);
      return result;
    },
  };
}

async function cachedVectors(
  store: EmbedderOptions['store'],
  keys: string[],
): Promise<Map<string, Float32Array>> {
  const found = new Map<string, Float32Array>();
  for (let start = 0; start < keys.length; start += EMBEDDING_BATCH_SIZE) {
    const batch = keys.slice(start, start + EMBEDDING_BATCH_SIZE);
    const values = await Promise.all(
      batch.map((key) => store.cache.get<CachedVector>(EMBEDDING_CACHE_NAMESPACE, key)),
    );
    values.forEach((value, index) => {
      const vector = decode(value);
      if (vector) found.set(batch[index]!, vector);
    });
  }
  return found;
}

/**
 * Asks the model for the missing texts, a few batches at a time (`llm.concurrency`); each answer is checked (count,
 * numbers, one dimension for all) and kept as it arrives. The first failure stops the batches still waiting.
 */
async function embedMissing({
  options,
  missing,
  shape,
  keep,
}: {
  options: EmbedderOptions;
  missing: [key: string, text: string][];
  shape: { dimensions: number | undefined };
  keep: (key: string, vector: Float32Array) => Promise<void>;
}): Promise<void> {
  const calls = await import('./_embedding-call.js');
  const env = options.env ?? {};
  const problem = calls.missingCredential(options.modelId, { llm: options.llm, env });
  if (problem) throw new EmbeddingError(problem);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const { meter, maxCostUsd } = options.budget ?? {};
  const call = calls.embeddingCaller({
    modelId: options.modelId,
    llm: options.llm,
    env,
    signal,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(meter ? { meter } : {}),
  });
  const batches: [string, string][][] = [];
  for (let start = 0; start < missing.length; start += EMBEDDING_BATCH_SIZE) {
    batches.push(missing.slice(start, start + EMBEDDING_BATCH_SIZE));
  }
  await Promise.all(
    batches.map(async (batch) => {
      try {
        // The same limit as the LLM client's: what the run has spent, triage and writing included, stops new calls.
        if (meter && maxCostUsd !== undefined && meter.costUsd >= maxCostUsd) {
          throw new EmbeddingError(`the cost limit of $${maxCostUsd} was reached`);
        }
        const answer = await call(batch.map(([, text]) => text));
        const vectors = checkAnswer(answer.vectors, batch.length, shape);
        for (const [index, [key]] of batch.entries()) await keep(key, vectors[index]!);
      } catch (error) {
        options.signal?.throwIfAborted();
        stop.abort(error);
        if (error instanceof EmbeddingError) throw error;
        throw new EmbeddingError(calls.describeFailure(error, options), { cause: error });
      }
    }),
  );
}

function checkAnswer(
  vectors: readonly (readonly number[])[],
  expected: number,
  shape: { dimensions: number | undefined },
): Float32Array[] {
  if (vectors.length !== expected) {
    throw new EmbeddingError(`a malformed answer: ${vectors.length} vectors for ${expected} texts`);
  }
  return vectors.map((vector) => {
    if (vector.length === 0 || !vector.every(Number.isFinite)) {
      throw new EmbeddingError('a malformed answer: an empty vector or one with non-numbers');
    }
    shape.dimensions ??= vector.length;
    if (vector.length !== shape.dimensions) {
      throw new EmbeddingError(
        `vectors of ${vector.length} dimensions where ${shape.dimensions} were expected`,
      );
    }
    const unit = unitVector(vector);
    if (!unit) throw new EmbeddingError('a malformed answer: a zero vector');
    return unit;
  });
}

function unitVector(vector: readonly number[]): Float32Array | null {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return null;
  const length = Math.sqrt(norm);
  return Float32Array.from(vector, (value) => value / length);
}

function encode(vector: Float32Array): CachedVector {
  return { f32: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') };
}

function decode(value: CachedVector | null): Float32Array | null {
  if (typeof value?.f32 !== 'string') return null;
  const bytes = Buffer.from(value.f32, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  // A copy: a Buffer may sit at an offset of its pool that a Float32Array cannot start at.
  return new Float32Array(Uint8Array.from(bytes).buffer);
}
