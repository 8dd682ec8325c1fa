// The one LLM client: the cache keeps every answer (also unusable ones) with its validation outcome, transport errors
// are never cached, triage spends through the same meter and budget, and every call is bounded in time and size.
// Real PGlite store; MockLanguageModelV3 under the real stack, or the loopback fake LLM over HTTP.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ConfigError, CredentialError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/ports.js';
import { createLlmClient, type LlmClientOptions } from '../../src/llm/client.js';
import { triageCandidates } from '../../src/select/triage.js';
import type { ItemChecks } from '../../src/write/faithfulness.js';
import { createWriter, formatUsageTable } from '../../src/write/index.js';
import { createLlmWriter } from '../../src/write/llm-writer.js';
import type { WriterContext } from '../../src/write/types.js';
import { useTestStore } from '../support/database.js';
import { type FakeBehaviour, type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { mockClient } from '../support/fake-llm-client.js';
import { hfItems } from '../support/real-items.js';
import { storedItem } from '../support/stored-items.js';

const context: WriterContext = {
  name: 'LLM News Digest',
  audience: 'engineers building production AI systems',
  log: silentLogger,
};
const items = hfItems('daily_papers_2026-06-12.json').slice(0, 3);
const checksOf = (item: { checks?: unknown }) => item.checks as ItemChecks;
const MODEL = 'openai:gpt-4.1-mini';

async function writeAll(writer: ReturnType<typeof createLlmWriter>) {
  const written = await writer.writeItems(items, context);
  await writer.writeEdition(
    items.map((item, index) => ({ ...item, ...written[index]! })),
    context,
  );
  return written;
}

describe('the cache keeps every answer, with its validation outcome', () => {
  const store = useTestStore();
  const brokenSecond = (call: { kind: string; user: string }) =>
    call.kind === 'item' && call.user.includes(items[1]!.title) ? 'invalid-json' : 'valid';

  it('a rebuild after invalid answers makes 0 calls; retryFailed re-asks only those', async () => {
    const first = mockClient(store(), brokenSecond, { modelId: MODEL });
    const written = await writeAll(createLlmWriter({ llmClient: first.llmClient }));
    expect(written[1]!.writer).toBe('extractive');
    expect(first.calls.filter((call) => call.kind === 'item')).toHaveLength(4);

    const again = mockClient(store(), brokenSecond, { modelId: MODEL });
    const rewritten = await writeAll(createLlmWriter({ llmClient: again.llmClient }));
    expect(again.calls).toHaveLength(0);
    expect(rewritten).toEqual(written);
    expect(again.llmClient.usage()).toMatchObject({ calls: 0, cacheHits: first.calls.length });

    const healthy = mockClient(store(), undefined, { modelId: MODEL, retryFailed: true });
    const repaired = await writeAll(createLlmWriter({ llmClient: healthy.llmClient }));
    // Only the second item's first call was unusable: asked again, now valid, then checked; the header changes with it.
    expect(healthy.calls.map((call) => call.kind)).toEqual(['item', 'check', 'edition']);
    expect(healthy.calls[0]!.user).toContain(items[1]!.title);
    expect(repaired[1]!.writer).toBe(MODEL);
    expect(repaired[0]).toEqual(written[0]);

    const later = mockClient(store(), brokenSecond, { modelId: MODEL, retryFailed: true });
    await writeAll(createLlmWriter({ llmClient: later.llmClient }));
    expect(later.calls).toHaveLength(0);
  });

  it('refresh re-asks every call', async () => {
    const first = mockClient(store(), undefined, { modelId: MODEL });
    await writeAll(createLlmWriter({ llmClient: first.llmClient }));
    const refreshed = mockClient(store(), undefined, { modelId: MODEL, refresh: true });
    await writeAll(createLlmWriter({ llmClient: refreshed.llmClient }));
    expect(refreshed.calls).toHaveLength(first.calls.length);
    expect(refreshed.llmClient.usage().cacheHits).toBe(0);
  });

  it('never caches a transport error: the next build asks again', async () => {
    const failing = mockClient(
      store(),
      (call) => (call.kind === 'item' ? new Error('socket hang up') : 'valid'),
      {
        modelId: MODEL,
      },
    );
    const [fallen] = await createLlmWriter({ llmClient: failing.llmClient }).writeItems(
      items.slice(0, 1),
      context,
    );
    expect(fallen!.writer).toBe('extractive');
    expect(failing.llmClient.usage()).toMatchObject({
      failedCalls: 1,
      byPurpose: { write: { failedCalls: 1 } },
    });
    const healthy = mockClient(store(), undefined, { modelId: MODEL });
    const [item] = await createLlmWriter({ llmClient: healthy.llmClient }).writeItems(
      items.slice(0, 1),
      context,
    );
    expect(item!.writer).toBe(MODEL);
    expect(healthy.calls.map((call) => call.kind)).toEqual(['item', 'check']);
  });
});

describe('triage on the llmClient', () => {
  const store = useTestStore();
  const candidates = Array.from({ length: 6 }, (_, index) =>
    storedItem({ key: `arxiv:2605.${30000 + index}`, title: `Agents in production, part ${index}` }),
  );

  it('its spend is in the usage by purpose and counts against maxCost', async () => {
    const { llmClient, calls } = mockClient(store(), undefined, {
      modelId: MODEL,
      llm: { prices: { [MODEL]: { input: 10_000, output: 10_000 } }, concurrency: 1 },
      maxCostUsd: 0.5,
    });
    const triage = await triageCandidates(candidates, { llmClient, audience: context.audience });
    expect(triage.scores.size).toBe(6);
    const written = await createLlmWriter({ llmClient }).writeItems(items, context);
    expect(calls.map((call) => call.kind)).toEqual(['triage']);
    for (const item of written) expect(checksOf(item).notes.join(' ')).toMatch(/cost limit/);
    const usage = llmClient.usage();
    expect(usage.byPurpose.triage).toMatchObject({ calls: 1, failedCalls: 0 });
    expect(usage.byPurpose.triage!.costUsd).toBeGreaterThan(0.5);
    expect(usage).toMatchObject({ calls: 1, budgetExhausted: true, fallbackItems: 3 });
    expect(formatUsageTable(usage)).toMatch(/for triage\s+1\s+0/);
  });

  it('an incomplete triage answer keeps its scores, counts the missing and is cached: a rebuild asks nothing, retryFailed asks again', async () => {
    // The model scores only the first two candidates of each batch.
    const partial = () => 'valid' as const;
    const first = mockClient(store(), partial, { modelId: MODEL });
    first.model.doGenerate = wrapScores(first.model.doGenerate, 2);
    const scored = await triageCandidates(candidates, { llmClient: first.llmClient, audience: 'x' });
    expect(scored.scores.size).toBe(2);
    expect(scored.rejectedScores).toBe(4);
    expect(scored.failedCandidates).toBe(0);
    expect(first.llmClient.usage().byPurpose.triage?.calls).toBe(1);

    const again = mockClient(store(), partial, { modelId: MODEL });
    const rescored = await triageCandidates(candidates, { llmClient: again.llmClient, audience: 'x' });
    expect(again.calls).toHaveLength(0);
    expect(rescored.scores).toEqual(scored.scores);
    expect(rescored.warnings).toEqual(scored.warnings);

    const retry = mockClient(store(), undefined, { modelId: MODEL, retryFailed: true });
    const repaired = await triageCandidates(candidates, { llmClient: retry.llmClient, audience: 'x' });
    expect(retry.calls).toHaveLength(1);
    expect(retry.calls[0]!.user.split('\n').filter((line) => line.startsWith('{'))).toHaveLength(6);
    expect(repaired.scores.size).toBe(6);
  });
});

/** Keeps only the first `keep` scores of every answer. */
function wrapScores(generate: LanguageModelV3['doGenerate'], keep: number): LanguageModelV3['doGenerate'] {
  return async (options) => {
    const result = await generate(options);
    const [part] = result.content as { type: string; text: string }[];
    const answer = JSON.parse(part!.text) as { scores: Record<string, number> };
    part!.text = JSON.stringify({ scores: Object.fromEntries(Object.entries(answer.scores).slice(0, keep)) });
    return result;
  };
}

describe('every call is bounded in time and size (HTTP, loopback fake LLM)', () => {
  const store = useTestStore();
  const TIMEOUT_MS = 1_500;

  function writerFor(server: FakeLlm, { llm, ...extra }: Partial<LlmClientOptions> = {}) {
    return createWriter({
      llm: { write: MODEL, timeoutMs: TIMEOUT_MS, maxRetries: 0, maxResponseBytes: 1_000_000, ...llm },
      store: store(),
      log: silentLogger,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
      ...extra,
    });
  }

  it.each([
    ['hang', /timed out/],
    ['drip', /timed out/],
    ['huge', /exceeded 1000 KB/],
    ['gzip-bomb', /exceeded 1000 KB/],
  ] as [FakeBehaviour, RegExp][])(
    'a %s answer fails that call within the timeout, with bounded memory, and the item falls back',
    async (behaviour, reason) => {
      const server = await startFakeLlm({
        script: (request, index) => (request.kind === 'item' && index === 0 ? behaviour : 'valid'),
      });
      try {
        const { writer, usage } = writerFor(server);
        const baseline = process.memoryUsage().rss;
        let peak = baseline;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 20);
        const startedAt = Date.now();
        const [item] = await writer
          .writeItems(items.slice(0, 1), context)
          .finally(() => clearInterval(sampler));
        expect(Date.now() - startedAt).toBeLessThan(TIMEOUT_MS + 1_000);
        expect((peak - baseline) / 1e6).toBeLessThan(100);
        expect(item!.writer).toBe('extractive');
        expect(checksOf(item!).notes[0]).toMatch(reason);
        expect(usage()).toMatchObject({ failedCalls: 1, fallbackItems: 1 });
      } finally {
        await server.close();
      }
    },
    20_000,
  );

  it('a hung server costs one timeout: after it, the remaining calls fail at once', async () => {
    const server = await startFakeLlm({ script: () => 'hang' });
    try {
      const { writer } = writerFor(server, { llm: { write: MODEL, concurrency: 1 } });
      const startedAt = Date.now();
      const written = await writer.writeItems(items, context);
      expect(Date.now() - startedAt).toBeLessThan(TIMEOUT_MS * 2);
      expect(written.every((item) => item.writer === 'extractive')).toBe(true);
      expect(server.count()).toBe(1);
      expect(checksOf(written[2]!).notes[0]).toMatch(/did not answer within/);
    } finally {
      await server.close();
    }
  });

  it('the caller’s abort signal aborts calls in flight and stops the writer', async () => {
    const controller = new AbortController();
    const server = await startFakeLlm({
      script: () => {
        controller.abort(new Error('interrupted by the test'));
        return 'hang';
      },
    });
    try {
      const { writer } = writerFor(server, {
        llm: { write: MODEL, timeoutMs: 60_000 },
        signal: controller.signal,
      });
      const startedAt = Date.now();
      await expect(writer.writeItems(items, context)).rejects.toThrow(/interrupted by the test/);
      expect(Date.now() - startedAt).toBeLessThan(2_000);
    } finally {
      await server.close();
    }
  });

  it('a rejected key (401) stops the build with a CredentialError naming the variable', async () => {
    const server = await startFakeLlm({ script: () => ({ status: 401 }) });
    try {
      const { writer } = writerFor(server);
      const error = await writer.writeItems(items, context).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CredentialError);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/rejected the key.*HTTP 401.*OPENAI_API_KEY/);
      // With fallback "extractive" the same answer only makes the items fall back.
      const lenient = writerFor(server, { llm: { write: MODEL, fallback: 'extractive' } });
      const written = await lenient.writer.writeItems(items, context);
      expect(written.every((item) => item.writer === 'extractive')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('fail loudly: a configured model without its key', () => {
  const store = useTestStore();

  it('throws ConfigError naming the variable before any work, unless offline or fallback "extractive"', () => {
    const options = { store: store(), log: silentLogger, env: {} };
    expect(() => createLlmClient({ ...options, llm: { write: MODEL } })).toThrow(ConfigError);
    expect(() => createLlmClient({ ...options, llm: { write: MODEL } })).toThrow(
      `Cannot use "${MODEL}": it needs OPENAI_API_KEY in the environment. Set OPENAI_API_KEY, or build with --offline`,
    );
    // A command without --offline (eval) says what it can do instead.
    expect(() =>
      createLlmClient({
        ...options,
        llm: {},
        run: { modelOverride: MODEL, withoutKey: 'leave it out of --models' },
      }),
    ).toThrow(/Set OPENAI_API_KEY, or leave it out of --models\.$/);
    expect(() =>
      createLlmClient({ ...options, llm: { write: 'anthropic:claude-haiku-4-5', check: MODEL } }),
    ).toThrow(/ANTHROPIC_API_KEY/);
    expect(() =>
      createLlmClient({
        ...options,
        env: { ANTHROPIC_API_KEY: 'k' },
        llm: { write: 'anthropic:x', check: MODEL },
      }),
    ).toThrow(/OPENAI_API_KEY/);

    const offline = createWriter({ ...options, llm: { write: MODEL }, run: { offline: true } });
    expect(offline.writer.name).toBe('extractive');
    const lenient = createWriter({ ...options, llm: { write: MODEL, fallback: 'extractive' } });
    expect(lenient.writer.name).toBe('extractive');
    expect(lenient.notice).toMatch(/OPENAI_API_KEY.*extractive/);
    const none = createWriter({ ...options, llm: {} });
    expect(none.notice).toMatch(/No LLM configured/);
  });
});
