// The one LLM client, against the loopback fake LLM answering after 300 ms: the LLM part of a build (triage of 60
// candidates in 2 batches → 12 items written and checked → title and intro) on the sample week's real items.
// (a) wall time vs the critical-path floor; (b) a rebuild after a build where some answers failed validation
// (target: 0 calls, ≤ 1 s); (c) the same build against a hung server (target: ends within 2× the timeout).
import { silentLogger } from '../src/core/ports.js';
import type { StoredItem } from '../src/core/types.js';
import { toWritingInput } from '../src/editions/edition-items.js';
import { triageCandidates } from '../src/select/triage.js';
import type { PlannedItem } from '../src/select/types.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/types.js';
import { createLlmClient } from '../src/write/index.js';
import { createLlmWriter } from '../src/write/llm-writer.js';
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from '../test/support/fake-llm.js';
import { storedFrom } from '../test/support/stored-items.js';
import { seedWeekItems } from './_seed-week.js';

const LATENCY_MS = 300;
const CONCURRENCY = 4;
const PICKS = 12;
const SHORTLIST = 60;
const BATCH = 30;
const MODEL = 'openai:gpt-4.1-mini';
const HUNG_TIMEOUT_MS = 5_000;
const AUDIENCE = 'engineers building production AI systems';

interface Run {
  wallMs: number;
  calls: number;
  fallbacks: number;
}

async function llmBuild(
  store: Store,
  candidates: StoredItem[],
  fake: { baseURL: string; count(): number },
  llm: Record<string, unknown> = {},
  refresh = false,
): Promise<Run> {
  const before = fake.count();
  const started = performance.now();
  const llmClient = createLlmClient({
    llm: { write: MODEL, concurrency: CONCURRENCY, ...llm },
    store,
    log: silentLogger,
    env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.baseURL },
    run: { refresh },
  });
  const triage = await triageCandidates(candidates, { llmClient, audience: AUDIENCE, batchSize: BATCH });
  const picks = [...candidates]
    .sort((a, b) => (triage.scores.get(b.key) ?? 0) - (triage.scores.get(a.key) ?? 0))
    .slice(0, PICKS)
    .map((item) => toWritingInput({ item } as PlannedItem));
  const writer = createLlmWriter({ llmClient });
  const context = { name: 'LLM News Digest', audience: AUDIENCE, log: silentLogger };
  const written = await writer.writeItems(picks, context);
  await writer.writeEdition(
    picks.map((pick, index) => ({ ...pick, ...written[index]! })),
    context,
  );
  return {
    wallMs: performance.now() - started,
    calls: fake.count() - before,
    fallbacks: llmClient.usage().fallbackItems,
  };
}

async function withFake<T>(options: FakeLlmOptions, run: (fake: FakeLlm, store: Store) => Promise<T>) {
  const fake = await startFakeLlm(options);
  const store = await openStore({ dataDir: 'memory://' });
  try {
    return await run(fake, store);
  } finally {
    await store.close();
    await fake.close();
  }
}

export async function benchLlmClient(): Promise<Record<string, number | string>> {
  const candidates = (await seedWeekItems())
    .map((item) => storedFrom(item))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .slice(0, SHORTLIST);

  // (a) healthy: triage batches run together, then every item's write → check chain, 4 calls in flight. Measured
  // twice: the first build pays the process's cold start (module loading, JIT, first connection); the second asks
  // every call again (refresh) in a warm process.
  const { cold, healthy } = await withFake({ latencyMs: LATENCY_MS }, async (fake, store) => ({
    cold: await llmBuild(store, candidates, fake),
    healthy: await llmBuild(store, candidates, fake, {}, true),
  }));
  const rounds =
    1 + Math.max(2, Math.ceil((healthy.calls - Math.ceil(SHORTLIST / BATCH) - 1) / CONCURRENCY)) + 1;
  const floorMs = rounds * LATENCY_MS;

  // (b) every item answer for one candidate in four is invalid JSON, the repair too: those items fall back.
  const brokenTitles = candidates.filter((_, index) => index % 4 === 0).map((item) => item.title);
  const broken = (request: { kind: string; user: string }) =>
    request.kind === 'item' && brokenTitles.some((title) => request.user.includes(title))
      ? 'invalid-json'
      : 'valid';
  const rebuild = await withFake({ latencyMs: LATENCY_MS, script: broken }, async (fake, store) => {
    const first = await llmBuild(store, candidates, fake);
    const again = await llmBuild(store, candidates, fake);
    return { first, again };
  });

  // (c) a server that accepts every request and never answers.
  const hung = await withFake({ script: () => 'hang' }, (fake, store) =>
    llmBuild(store, candidates, fake, { timeoutMs: HUNG_TIMEOUT_MS }),
  );

  return {
    'LLM calls (triage + write + check + edition)': healthy.calls,
    'LLM build wall s (300 ms a call)': healthy.wallMs / 1000,
    'critical-path floor s': floorMs / 1000,
    'wall / floor': healthy.wallMs / floorMs,
    'wall / floor, cold process': cold.wallMs / floorMs,
    'first build: items fallen back (invalid answers)': rebuild.first.fallbacks,
    'rebuild after invalid answers: calls': rebuild.again.calls,
    'rebuild after invalid answers: wall s': rebuild.again.wallMs / 1000,
    'hung server: timeout s': HUNG_TIMEOUT_MS / 1000,
    'hung server: build wall s': hung.wallMs / 1000,
    'hung server: wall / timeout': hung.wallMs / HUNG_TIMEOUT_MS,
    'hung server: items fallen back': hung.fallbacks,
  };
}
