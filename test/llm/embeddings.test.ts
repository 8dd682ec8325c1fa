// The embedder over HTTP: the AI SDK's OpenAI and OpenAI-compatible providers against the loopback fake, vectors
// kept in a real store's cache, every kind of failure an EmbeddingError that says why.
import { afterEach, describe, expect, it } from 'vitest';
import { llmSchema } from '../../src/config/llm-schema.js';
import { createEmbedder, EMBEDDING_BATCH_SIZE, EmbeddingError } from '../../src/llm/embeddings.js';
import { UsageMeter } from '../../src/llm/usage.js';
import { useTestStore } from '../support/database.js';
import { FAKE_EMBEDDING_DIMENSIONS, fakeEmbedding } from '../support/fake-embeddings.js';
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from '../support/fake-llm.js';

const MODEL = 'openai:text-embedding-3-small';

describe('embedder', () => {
  const store = useTestStore();
  let fake: FakeLlm | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function embedder(options: FakeLlmOptions = {}, extra: Record<string, unknown> = {}) {
    fake = await startFakeLlm(options);
    return createEmbedder({
      modelId: MODEL,
      llm: llmSchema.parse({ embed: MODEL, maxRetries: 0, ...extra }),
      store: store(),
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL },
    });
  }

  it('embeds each text once per model, in batches, and answers again from the store with no call', async () => {
    const texts = Array.from(
      { length: EMBEDDING_BATCH_SIZE + 6 },
      (_, index) => `Text number ${index} on agents`,
    );
    const meter = new UsageMeter();
    const first = await embedder();
    const vectors = await createEmbedder({
      modelId: MODEL,
      llm: llmSchema.parse({ embed: MODEL, maxRetries: 0 }),
      store: store(),
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake!.baseURL },
      budget: { meter },
    }).embed([...texts, texts[0]!]);
    expect(vectors).toHaveLength(texts.length + 1);
    expect(vectors[0]!.length).toBe(FAKE_EMBEDDING_DIMENSIONS);
    expect([...vectors[0]!]).toEqual([...vectors.at(-1)!]);
    const expected = fakeEmbedding(texts[3]!);
    for (const [index, value] of vectors[3]!.entries()) expect(value).toBeCloseTo(expected[index]!, 5);
    expect(fake!.embeddings.map((request) => request.input.length)).toEqual([EMBEDDING_BATCH_SIZE, 6]);
    expect(fake!.embeddings[0]!.model).toBe('text-embedding-3-small');
    expect(fake!.embeddings[0]!.headers.authorization).toBe('Bearer test-key');
    expect(meter.snapshot().byPurpose.embed).toMatchObject({ calls: 2, tokensOut: 0 });
    expect(meter.snapshot().byPurpose.embed!.tokensIn).toBeGreaterThan(0);

    const again = await first.embed(texts.slice(0, 5));
    expect(fake!.embeddings).toHaveLength(2);
    expect([...again[3]!]).toEqual([...vectors[3]!]);
  });

  it('embeds stored texts again when the model now answers in another size (updated in place)', async () => {
    let size = FAKE_EMBEDDING_DIMENSIONS;
    const live = await embedder({ embeddingScript: () => ({ dimensions: size }) });
    await live.embed(['An old text', 'Another old text']);
    size = 32;
    const vectors = await live.embed(['An old text', 'A new text']);
    expect(vectors.map((vector) => vector.length)).toEqual([32, 32]);
    // One call for the new text, one for the stale stored one; the other stored text was not asked for.
    expect(fake!.embeddings.map((request) => request.input)).toEqual([
      ['An old text', 'Another old text'],
      ['A new text'],
      ['An old text'],
    ]);
    const again = await live.embed(['An old text', 'A new text']);
    expect(again.map((vector) => vector.length)).toEqual([32, 32]);
    expect(fake!.embeddings).toHaveLength(3);
  });

  it("makes no call once the run's cost limit is reached, and counts its own calls toward it", async () => {
    fake = await startFakeLlm();
    const meter = new UsageMeter();
    const limited = (maxCostUsd: number) =>
      createEmbedder({
        modelId: MODEL,
        llm: llmSchema.parse({ embed: MODEL, maxRetries: 0 }),
        store: store(),
        env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake!.baseURL },
        budget: { meter, maxCostUsd },
      });
    await limited(1).embed(['Under the limit']);
    expect(fake.embeddings).toHaveLength(1);
    meter.recordCall({
      model: 'openai:gpt-4.1-mini',
      tokensIn: 1,
      tokensOut: 1,
      latencyMs: 1,
      costUsd: 0.5,
      priced: true,
      purpose: 'write',
    });
    const refused = await limited(0.5)
      .embed(['Over the limit'])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddingError);
    expect(String((refused as Error).message)).toMatch(/cost limit of \$0\.5/);
    expect(fake.embeddings).toHaveLength(1);
    // Stored vectors cost nothing: the limit does not stop them.
    expect(await limited(0.5).embed(['Under the limit'])).toHaveLength(1);
  });

  it('answers from the store only when asked to, failing for a text never embedded', async () => {
    const live = await embedder();
    await live.embed(['A stored text']);
    const cacheOnly = createEmbedder({
      modelId: MODEL,
      llm: llmSchema.parse({ embed: MODEL }),
      store: store(),
      env: {},
      cacheOnly: true,
    });
    expect(await cacheOnly.embed(['A stored text'])).toHaveLength(1);
    await expect(cacheOnly.embed(['A stored text', 'A new text'])).rejects.toThrow(
      /1 text\(s\) not embedded yet/,
    );
    expect(fake!.embeddings).toHaveLength(1);
  });

  const failures: [string, FakeLlmOptions['embeddingScript'], RegExp, number][] = [
    ['an HTTP error', () => ({ status: 500 }), /HTTP 500/, 1],
    ['a rejected key', () => ({ status: 401 }), /HTTP 401: the key was rejected; check OPENAI_API_KEY/, 1],
    ['a malformed answer', () => 'malformed', /a malformed answer \(Invalid JSON response/, 1],
    [
      'vectors of another size',
      (_, index) => (index === 0 ? 'valid' : { dimensions: 32 }),
      /32 dimensions/,
      2,
    ],
  ];
  for (const [what, script, reason, requests] of failures) {
    it(`fails with an EmbeddingError for ${what}, stopping the batches left and keeping no bad vector`, async () => {
      const live = await embedder({ embeddingScript: script }, { concurrency: 1 });
      const texts = Array.from({ length: 2 * EMBEDDING_BATCH_SIZE + 1 }, (_, index) => `Item ${index}`);
      const failure = await live.embed(texts).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EmbeddingError);
      expect((failure as Error).message).toMatch(reason);
      expect(fake!.embeddings).toHaveLength(requests);
      const stored = createEmbedder({
        modelId: MODEL,
        llm: llmSchema.parse({}),
        store: store(),
        cacheOnly: true,
      });
      const keptFirstBatch = requests > 1;
      await expect(
        stored.embed(texts.slice(0, 1)).then(
          () => true,
          () => false,
        ),
      ).resolves.toBe(keptFirstBatch);
      await expect(stored.embed(texts.slice(EMBEDDING_BATCH_SIZE, EMBEDDING_BATCH_SIZE + 1))).rejects.toThrow(
        /not embedded yet/,
      );
    });
  }

  it('times out a hung server within llm.timeoutMs', async () => {
    const live = await embedder({ embeddingScript: () => 'hang' }, { timeoutMs: 300 });
    await expect(live.embed(['Anything'])).rejects.toThrow(/within 300 ms/);
  });

  it('names the missing key without calling anything', async () => {
    fake = await startFakeLlm();
    const live = createEmbedder({
      modelId: MODEL,
      llm: llmSchema.parse({ embed: MODEL }),
      store: store(),
      env: { OPENAI_BASE_URL: fake.baseURL },
    });
    await expect(live.embed(['Anything'])).rejects.toThrow(/OPENAI_API_KEY is not set/);
    expect(fake.embeddings).toHaveLength(0);
  });

  it('speaks to OpenAI-compatible servers (Ollama, vLLM) the same way', async () => {
    fake = await startFakeLlm();
    const live = createEmbedder({
      modelId: 'ollama:nomic-embed-text',
      llm: llmSchema.parse({ embed: 'ollama:nomic-embed-text' }),
      store: store(),
      env: { OLLAMA_BASE_URL: fake.baseURL },
    });
    expect((await live.embed(['An agent benchmark']))[0]).toHaveLength(FAKE_EMBEDDING_DIMENSIONS);
    expect(fake.embeddings[0]!.model).toBe('nomic-embed-text');
  });
});
