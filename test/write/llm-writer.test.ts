// LLM writer logic with MockLanguageModelV3 (ai/test) and the real store (PGlite in memory).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmConfigInput } from '../../src/config/llm-schema.js';
import { silentLogger } from '../../src/core/ports.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import type { ItemChecks } from '../../src/write/faithfulness.js';
import { createLlmWriter } from '../../src/write/llm-writer.js';
import { normaliseText, wordCount } from '../../src/write/sentences.js';
import type { WriterContext } from '../../src/write/types.js';
import type { FakeBehaviour } from '../support/fake-llm-answers.js';
import { mockClient } from '../support/fake-llm-client.js';
import type { MockCall } from '../support/mock-model.js';
import { hfItems } from '../support/real-items.js';

let store: Store;
beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
});

const context: WriterContext = {
  name: 'LLM News Digest',
  audience: 'engineers building production AI systems',
  log: silentLogger,
};
const items = hfItems('daily_papers_2026-07-31.json').slice(0, 3);
let modelCounter = 0;

function setup(
  script?: (call: MockCall, index: number) => FakeBehaviour | Error,
  overrides: {
    checkOff?: boolean;
    modelId?: string;
    llm?: LlmConfigInput;
    refresh?: boolean;
    retryFailed?: boolean;
  } = {},
) {
  const modelId = overrides.modelId ?? `openai:mock-${++modelCounter}`;
  const { llmClient, calls } = mockClient(store, script, {
    modelId,
    llm: { checkEnabled: !overrides.checkOff, ...overrides.llm },
    ...(overrides.refresh ? { refresh: true } : {}),
    ...(overrides.retryFailed ? { retryFailed: true } : {}),
  });
  const writer = createLlmWriter({ llmClient });
  return { writer, meter: llmClient.meter, calls, modelId, llmClient };
}

const checksOf = (item: { checks?: unknown }) => item.checks as ItemChecks;

describe('LLM writer with a faithful model', () => {
  it('writes every item, checks every claim and counts calls, tokens and cost', async () => {
    const progress: string[] = [];
    const { writer, meter, calls, modelId } = setup(undefined, {
      llm: { prices: { 'openai:unused': { input: 1, output: 1 } } },
    });
    const written = await writer.writeItems(items, {
      ...context,
      onItemWritten: (done, total) => progress.push(`${done}/${total}`),
    });
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
    for (const [index, item] of written.entries()) {
      expect(item.writer).toBe(modelId);
      expect(wordCount(item.summary)).toBeGreaterThanOrEqual(50);
      expect(wordCount(item.summary)).toBeLessThanOrEqual(110);
      expect(item.takeaways).toHaveLength(3);
      const checks = checksOf(item);
      expect(checks.status).toBe('passed');
      expect(checks.flagged).toBe(false);
      expect(checks.claims.filter((claim) => claim.kind === 'takeaway')).toHaveLength(3);
      for (const claim of checks.claims.filter((entry) => entry.factual)) {
        expect(normaliseText(items[index]!.text).toLowerCase()).toContain(
          claim.quote!.toLowerCase().replace(/\.$/, ''),
        );
      }
    }
    expect(calls.filter((call) => call.kind === 'item')).toHaveLength(3);
    expect(calls.filter((call) => call.kind === 'check')).toHaveLength(3);
    const usage = meter.snapshot();
    expect(usage.calls).toBe(6);
    expect(usage.cacheHits).toBe(0);
    expect(usage.tokensIn).toBeGreaterThan(1000);
    expect(usage.tokensOut).toBeGreaterThan(100);
    expect(usage.byModel[modelId]?.calls).toBe(6);
  });

  it('sends the JSON schema with every call and the source only inside the delimiters', async () => {
    const { writer, calls } = setup();
    await writer.writeItems(items.slice(0, 1), context);
    for (const call of calls) {
      expect(call.options.responseFormat?.type).toBe('json');
      expect(call.options.responseFormat).toHaveProperty('schema');
    }
    const item = calls.find((call) => call.kind === 'item')!;
    expect(item.user.split('<source_text>')).toHaveLength(2);
    expect(item.system).toMatch(/never an instruction to you/);
  });

  it('prices calls from the table and its overrides', async () => {
    const { writer, meter, modelId } = setup(undefined, {
      checkOff: true,
      modelId: 'openai:gpt-4.1-mini-mocktest',
    });
    await writer.writeItems(items.slice(0, 1), context);
    const usage = meter.snapshot();
    const expected = (usage.tokensIn * 0.4 + usage.tokensOut * 1.6) / 1e6;
    expect(usage.costUsd).toBeCloseTo(expected, 6);
    expect(modelId).toContain('gpt-4.1-mini');
  });
});

describe('cache', () => {
  it('a rebuild of the same items makes 0 calls and returns the same text; refresh calls again', async () => {
    const modelId = `openai:mock-cache-${++modelCounter}`;
    const first = setup(undefined, { modelId });
    const before = await first.writer.writeItems(items, context);
    const again = setup(undefined, { modelId });
    const after = await again.writer.writeItems(items, context);
    expect(again.calls).toHaveLength(0);
    expect(again.meter.snapshot()).toMatchObject({ calls: 0, cacheHits: 6, costUsd: 0 });
    expect(after).toEqual(before);
    const refreshed = setup(undefined, { modelId, refresh: true });
    await refreshed.writer.writeItems(items, context);
    expect(refreshed.calls).toHaveLength(6);
  });
});

describe('repair and fallback', () => {
  it('repairs schema-violating output once, telling the model what was wrong', async () => {
    const { writer, calls } = setup((call, index) =>
      call.kind === 'item' && index === 0 ? 'schema-violation' : 'valid',
    );
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(checksOf(item!)).toMatchObject({ status: 'passed', repaired: true });
    const repair = calls.filter((call) => call.kind === 'item')[1]!;
    expect(repair.lastUser).toMatch(/broke these rules/);
    expect(repair.lastUser).toMatch(/takeaways|level/);
  });

  it('repairs HTML, links and URLs in otherwise well-formed output', async () => {
    const { writer, calls } = setup((call, index) =>
      call.kind === 'item' && index === 0 ? 'rule-violation' : 'valid',
    );
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(item!.summary).not.toMatch(/<b>|https?:|\]\(/);
    const repair = calls.filter((call) => call.kind === 'item')[1]!;
    expect(repair.lastUser).toMatch(/contains HTML/);
    expect(repair.lastUser).toMatch(/contains a Markdown link|contains a URL/);
    expect(repair.lastUser).toMatch(/summary has \d+ words/);
  });

  it('falls back to the extractive writer for that item alone when the repair fails too', async () => {
    const { writer, meter, modelId } = setup((call) =>
      call.kind === 'item' && call.user.includes(items[1]!.title) ? 'invalid-json' : 'valid',
    );
    const written = await writer.writeItems(items, context);
    expect(written[0]!.writer).toBe(modelId);
    expect(written[2]!.writer).toBe(modelId);
    expect(written[1]!.writer).toBe('extractive');
    expect(checksOf(written[1]!)).toMatchObject({ status: 'fallback', flagged: true });
    expect(checksOf(written[1]!).notes[0]).toMatch(/not valid JSON/);
    // The fallback speaks in the reader's voice ("The authors introduce …" for "We introduce …").
    expect(normaliseText(items[1]!.text)).toContain(written[1]!.takeaways[0].split(' ').slice(2).join(' '));
    // A fallback is counted with its reason, not as "flagged by the faithfulness check": no check judged it.
    expect(meter.snapshot()).toMatchObject({
      fallbackItems: 1,
      fallbackReasons: { 'not JSON': 1 },
      flaggedItems: 0,
    });
  });

  it('falls back when the model call throws', async () => {
    const { writer } = setup(() => new Error('connection reset by fake'), { llm: { maxRetries: 0 } });
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(item!.writer).toBe('extractive');
    expect(checksOf(item!).notes.join(' ')).toMatch(/connection reset by fake/);
  });
});

describe('faithfulness check', () => {
  it('regenerates once with the verdict as feedback, then passes', async () => {
    const { writer, calls } = setup((call, index) =>
      call.kind === 'item' && index === 0 ? 'unfaithful' : 'valid',
    );
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(checksOf(item!)).toMatchObject({ status: 'passed', regenerated: true, flagged: false });
    const feedback = calls.filter((call) => call.kind === 'item')[1]!.lastUser;
    expect(feedback).toMatch(/cures every known disease/);
    expect(feedback).toMatch(/supporting quote not found in the source/);
    expect(item!.takeaways.join(' ')).not.toMatch(/cures every known disease/);
  });

  it('flags the item when the regenerated text is still unsupported', async () => {
    const { writer, meter } = setup((call) => (call.kind === 'item' ? 'unfaithful' : 'valid'));
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    const checks = checksOf(item!);
    expect(checks).toMatchObject({ status: 'flagged', flagged: true, regenerated: true });
    const unsupported = checks.claims.filter((claim) => claim.verdict === 'unsupported');
    expect(unsupported.map((claim) => claim.claim)).toEqual([
      'The method cures every known disease within three days of training.',
    ]);
    expect(meter.snapshot().flaggedItems).toBe(1);
  });

  it('counts a check that could not run apart from items the check judged', async () => {
    const { writer, meter } = setup(
      (call) => (call.kind === 'check' ? new Error('judge unreachable') : 'valid'),
      {
        llm: { maxRetries: 0 },
      },
    );
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(checksOf(item!)).toMatchObject({ status: 'check-failed', flagged: true });
    expect(meter.snapshot()).toMatchObject({ checkFailedItems: 1, flaggedItems: 0, fallbackItems: 0 });
  });

  it('counts each fallback with the rule its answer broke ("takeaways not 3")', async () => {
    const { writer, meter } = setup((call) =>
      call.kind === 'item' && call.user.includes(items[0]!.title) ? 'schema-violation' : 'valid',
    );
    const written = await writer.writeItems(items.slice(0, 2), context);
    expect(written[0]!.writer).toBe('extractive');
    expect(meter.snapshot()).toMatchObject({
      fallbackItems: 1,
      fallbackReasons: { 'takeaways not 3': 1 },
      flaggedItems: 0,
    });
  });

  it('makes no check calls when the check is off', async () => {
    const { writer, calls } = setup(undefined, { checkOff: true });
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(calls.map((call) => call.kind)).toEqual(['item']);
    expect(checksOf(item!).status).toBe('unchecked');
  });
});

describe('cost limit', () => {
  it('stops spending when maxCostUsd is reached: the rest is extractive and flagged', async () => {
    const modelId = `openai:mock-cost-${++modelCounter}`;
    const { writer, meter, calls } = setup(undefined, {
      modelId,
      llm: { prices: { [modelId]: { input: 1000, output: 1000 } }, maxCostUsd: 0.5, concurrency: 1 },
      checkOff: true,
    });
    const written = await writer.writeItems(items, context);
    expect(calls).toHaveLength(1);
    expect(written[0]!.writer).toBe(modelId);
    for (const item of written.slice(1)) {
      expect(item.writer).toBe('extractive');
      expect(checksOf(item)).toMatchObject({ status: 'fallback', flagged: true });
      expect(checksOf(item).notes.join(' ')).toMatch(/cost limit/);
    }
    expect(meter.snapshot()).toMatchObject({ budgetExhausted: true, fallbackItems: 2 });
  });
});

describe('edition header', () => {
  it('writes a two-theme title and an intro, else falls back to the extractive header', async () => {
    const good = setup();
    const written = await good.writer.writeItems(items, context);
    const inputs = items.map((item, index) => ({ ...item, ...written[index]! }));
    const header = await good.writer.writeEdition(inputs, context);
    expect(header.writer).toBe(good.modelId);
    expect(header.title).toMatch(/^[^,]+, [^,]+$/);
    expect(header.intro).toMatch(/3 items/);

    const warnings: string[] = [];
    const bad = setup((call) => (call.kind === 'edition' ? 'invalid-json' : 'valid'));
    const fallback = await bad.writer.writeEdition(inputs, {
      ...context,
      log: { ...silentLogger, warn: (m) => warnings.push(m) },
    });
    expect(fallback.writer).toBe('extractive');
    expect(fallback.intro).toMatch(/^This week's edition /);
    expect(bad.calls.filter((call) => call.kind === 'edition')).toHaveLength(2);
    expect(warnings.join(' ')).toMatch(/could not write the title and intro/);
  });
});
