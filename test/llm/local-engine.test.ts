// Local engines and busy servers: what runs on the user's own machine is free and is sent no more calls than it has
// slots; a provider whose calls time out while others are in flight gets fewer at a time, and no call is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import { createCallLimiter, type SlotOutcome } from '../../src/llm/call-limiter.js';
import { engineSlots, propsUrl } from '../../src/llm/engine-slots.js';
import { priceOf } from '../../src/llm/pricing.js';
import { isLocalModel } from '../../src/llm/providers.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createWriter, formatUsageTable } from '../../src/write/index.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { hfItems } from '../support/real-items.js';

describe('which models are local', () => {
  const compatible = (baseURL: string) =>
    isLocalModel('openai-compatible:qwen', { llm: { openaiCompatible: { baseURL } }, env: {} });

  it('ollama and openai-compatible servers on loopback or private addresses; never openai or anthropic', () => {
    expect(isLocalModel('ollama:qwen3:8b', { llm: {}, env: {} })).toBe(true);
    expect(compatible('http://127.0.0.1:8080/v1')).toBe(true);
    expect(compatible('http://localhost:1234/v1')).toBe(true);
    expect(compatible('http://[::1]:8080/v1')).toBe(true);
    expect(compatible('http://192.168.1.20:8000/v1')).toBe(true);
    expect(compatible('http://10.0.0.7/v1')).toBe(true);
    expect(compatible('https://openrouter.ai/api/v1')).toBe(false);
    expect(compatible('http://93.184.216.34/v1')).toBe(false);
    const loopbackGateway = { llm: {}, env: { OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1' } };
    expect(isLocalModel('openai:gpt-4.1-mini', loopbackGateway)).toBe(false);
  });

  it('prices a local model at $0, known (no price warning); a remote unknown one stays unpriced', () => {
    expect(priceOf('openai-compatible:qwen', {}, true)).toEqual({ input: 0, output: 0, known: true });
    expect(priceOf('openai-compatible:qwen', {}, false)).toMatchObject({ known: false });
    expect(priceOf('openai-compatible:qwen', { qwen: { input: 1, output: 2 } }, true)).toMatchObject({
      input: 1,
      known: true,
    });
  });

  it('reads the slots a llama.cpp-style server reports at /props, and null from one that does not say', async () => {
    expect(propsUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/props');
    expect(propsUrl('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080/props');
    const reporting = await startFakeLlm({ slots: 3 });
    const silent = await startFakeLlm();
    try {
      expect(await engineSlots(reporting.baseURL)).toBe(3);
      expect(await engineSlots(silent.baseURL)).toBeNull();
      expect(await engineSlots('http://127.0.0.1:9/v1', { timeoutMs: 500 })).toBeNull();
    } finally {
      await reporting.close();
      await silent.close();
    }
  });
});

describe('the adaptive window', () => {
  /** Starts `count` calls; each ends when the test says how. */
  function calls(limiter: ReturnType<typeof createCallLimiter>, count: number) {
    const endings: ((outcome: SlotOutcome) => void)[] = [];
    const shared: boolean[] = [];
    const done = Array.from({ length: count }, () =>
      limiter.run('openai-compatible', (slot, finish) => {
        return new Promise<void>((resolve) => {
          endings.push((outcome) => {
            shared.push(slot.shared);
            finish(outcome);
            resolve();
          });
        });
      }),
    );
    return { endings, shared, done };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('halves once per round when calls time out beside others, then grows by one a window, below the overflow', async () => {
    const limiter = createCallLimiter({ concurrency: 4 });
    const run = calls(limiter, 12);
    await settle();
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 4, running: 4, waiting: 8 });
    // Two calls of the same round time out: the window halves once, not twice.
    run.endings.shift()!('timed-out');
    run.endings.shift()!('timed-out');
    await settle();
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 2, running: 2 });
    expect(run.shared.slice(0, 2)).toEqual([true, true]);
    // Two answers at window 2 grow it to 3.
    run.endings.shift()!('answered');
    run.endings.shift()!('answered');
    await settle();
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 3, running: 3, max: 3 });
    // 4 in flight overflowed: the window grows no further than 3.
    for (let index = 0; index < 3; index += 1) {
      run.endings.shift()!('answered');
      await settle();
    }
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 3, max: 3 });
    while (run.endings.length) {
      run.endings.shift()!('answered');
      await settle();
    }
    await Promise.all(run.done);
  });

  it('a local engine starts and stays at its slots; a call alone is not "shared"', async () => {
    const limiter = createCallLimiter({ concurrency: 4 });
    limiter.configure('openai-compatible', { start: 1, max: 1 });
    const run = calls(limiter, 3);
    await settle();
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 1, running: 1, waiting: 2 });
    for (let index = 0; index < 3; index += 1) {
      run.endings.shift()!('answered');
      await settle();
    }
    await Promise.all(run.done);
    expect(run.shared).toEqual([false, false, false]);
    expect(limiter.windows()['openai-compatible']).toMatchObject({ window: 1, max: 1 });
  });
});

describe('a one-slot server over HTTP', () => {
  let store: Store;
  let server: FakeLlm | undefined;
  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });
  const items = hfItems('daily_papers_2026-06-12.json').slice(0, 6);
  const context = { name: 'LLM News Digest', audience: 'engineers', log: silentLogger };

  it('a provider that does not report slots: calls that time out in its queue are asked again, fewer at a time', async () => {
    server = await startFakeLlm({ slots: 1, reportSlots: false, latencyMs: 300 });
    const model = 'openai:gpt-4.1-mini';
    const { writer, usage } = createWriter({
      // Remote (openai:), so it starts at the default 4 in flight; 4 × 300 ms in a one-slot line > 1 s.
      llm: { write: model, timeoutMs: 1_000 },
      store,
      log: silentLogger,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
    });
    const written = await writer.writeItems(items, context);
    expect(written.map((item) => item.writer)).toEqual(items.map(() => model));
    const spent = usage();
    expect(spent.requeuedCalls).toBeGreaterThan(0);
    expect(spent).toMatchObject({ failedCalls: 0, fallbackItems: 0 });
    expect(formatUsageTable(spent)).toMatch(/timed out in the server's queue and were asked again/);
  }, 60_000);

  it('a hung server that never answered is not a queue: its first timeouts open the breaker, nothing is asked again', async () => {
    server = await startFakeLlm({ script: () => 'hang' });
    const model = 'openai:gpt-4.1-mini';
    const { writer, usage } = createWriter({
      // 4 calls in flight from the start; none is ever answered.
      llm: { write: model, timeoutMs: 500 },
      store,
      // The test before cached answers for these items: ask the server.
      run: { refresh: true },
      log: silentLogger,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
    });
    const written = await writer.writeItems(items, context);
    expect(written.map((item) => item.writer)).toEqual(items.map(() => 'extractive'));
    const spent = usage();
    expect(spent.requeuedCalls).toBe(0);
    // The first round's calls (at most the window of 4) reached the server; the rest failed at the open breaker.
    expect(server.requests.length).toBeLessThanOrEqual(4);
  }, 60_000);
});
