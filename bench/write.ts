// LLM writer against the loopback fake LLM answering after a fixed 300 ms: wall time of a 12-item edition
// (write + faithfulness check + title/intro) vs the critical-path floor ⌈calls / concurrency⌉ × latency, tokens per
// edition, and the rebuild from the cache (target: 0 calls, < 1 s).
import { silentLogger } from '../src/core/ports.js';
import { openStore } from '../src/store/open-store.js';
import { createWriter } from '../src/write/index.js';
import type { ItemForWriting, WriterContext } from '../src/write/types.js';
import { startFakeLlm } from '../test/support/fake-llm.js';
import { hfItems } from '../test/support/real-items.js';

const LATENCY_MS = 300;
const CONCURRENCY = 4;
const ITEMS = 12;
const MODEL = 'openai:gpt-4.1-mini';

async function writeEdition(
  setup: ReturnType<typeof createWriter>,
  items: ItemForWriting[],
  context: WriterContext,
): Promise<number> {
  const started = performance.now();
  const written = await setup.writer.writeItems(items, context);
  await setup.writer.writeEdition(
    items.map((item, index) => ({ ...item, ...written[index]! })),
    context,
  );
  return performance.now() - started;
}

export async function benchWrite(): Promise<Record<string, number | string>> {
  const items = hfItems('daily_papers_2026-07-31.json').slice(0, ITEMS);
  const fake = await startFakeLlm({ latencyMs: LATENCY_MS });
  const store = await openStore({ dataDir: 'memory://' });
  const context: WriterContext = {
    name: 'LLM News Digest',
    audience: 'engineers building production AI systems',
    log: silentLogger,
  };
  const options = {
    llm: { write: MODEL, concurrency: CONCURRENCY, timeoutMs: 30_000 },
    store,
    log: silentLogger,
    env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.baseURL },
  };
  try {
    const first = createWriter(options);
    const wallMs = await writeEdition(first, items, context);
    const usage = first.usage();
    const calls = fake.count();
    const floorMs = Math.ceil(calls / CONCURRENCY) * LATENCY_MS;

    const before = fake.count();
    const rebuild = createWriter(options);
    const rebuildMs = await writeEdition(rebuild, items, context);

    return {
      'items written': ITEMS,
      'LLM calls (write + check + edition)': calls,
      'write wall s (12 items, 300 ms latency)': wallMs / 1000,
      'critical-path floor s': floorMs / 1000,
      'wall / floor': wallMs / floorMs,
      'tokens in per edition': usage.tokensIn,
      'tokens out per edition': usage.tokensOut,
      'cost per edition USD (gpt-4.1-mini prices)': usage.costUsd,
      'rebuild wall s': rebuildMs / 1000,
      'rebuild calls': fake.count() - before,
      'rebuild cache hits': rebuild.usage().cacheHits,
    };
  } finally {
    await store.close();
    await fake.close();
  }
}
