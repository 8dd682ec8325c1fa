// The fake LLM's embeddings endpoint (POST /v1/embeddings, OpenAI's documented answer, which Ollama and other
// OpenAI-compatible servers speak too): deterministic vectors, a hashed bag of words, so texts sharing words are
// near each other and the same text always gets the same vector. Synthetic by design.
import type { LoopbackRequest } from './loopback.js';

export const FAKE_EMBEDDING_DIMENSIONS = 64;

/** How the fake answers one embeddings request; statuses and 'hang' are HTTP-level failures. */
export type FakeEmbeddingBehaviour =
  | 'valid'
  /** `embedding` is a string, not an array of numbers. */
  | 'malformed'
  | 'hang'
  /** Vectors of this many dimensions instead of FAKE_EMBEDDING_DIMENSIONS. */
  | { dimensions: number }
  | { status: number };

export interface FakeEmbeddingRequest {
  model: string;
  input: string[];
  headers: LoopbackRequest['headers'];
  body: Record<string, unknown>;
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'that',
  'this',
  'are',
  'was',
  'its',
  'our',
  'into',
]);

function hash(word: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < word.length; index++) {
    value ^= word.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Each word of three letters or more adds ±1 to one of `dimensions` buckets; unit length, six decimals. */
export function fakeEmbedding(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    const value = hash(word);
    vector[value % dimensions]! += value & 0x10000 ? 1 : -1;
  }
  // A constant component, like real models' shared direction (and no zero vector for an empty text).
  vector[0]! += 0.5;
  const length = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return vector.map((value) => Math.round((value / length) * 1e6) / 1e6);
}

export function parseEmbeddingRequest(incoming: LoopbackRequest): FakeEmbeddingRequest {
  const body = JSON.parse(incoming.body) as Record<string, unknown>;
  const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
  return { model: String(body.model ?? ''), input, headers: incoming.headers, body };
}

/** The status and JSON body for a request, or null for 'hang'. */
export function embeddingAnswer(
  request: FakeEmbeddingRequest,
  behaviour: FakeEmbeddingBehaviour,
): { status: number; body: unknown } | null {
  if (behaviour === 'hang') return null;
  if (typeof behaviour === 'object' && 'status' in behaviour) {
    return {
      status: behaviour.status,
      body: {
        error: { message: `fake ${behaviour.status}`, type: 'server_error', code: String(behaviour.status) },
      },
    };
  }
  const dimensions = typeof behaviour === 'object' ? behaviour.dimensions : FAKE_EMBEDDING_DIMENSIONS;
  const tokens = Math.max(1, Math.ceil(request.input.join(' ').length / 4));
  return {
    status: 200,
    body: {
      object: 'list',
      data: request.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: behaviour === 'malformed' ? 'not a vector' : fakeEmbedding(text, dimensions),
      })),
      model: request.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}
