// The LLM writer's small parts: limiter, prices, quotes, prompts, usage table.
import { describe, expect, it } from 'vitest';
import { createCallLimiter } from '../../src/llm/call-limiter.js';
import { costOf, priceOf } from '../../src/llm/pricing.js';
import { UsageMeter } from '../../src/llm/usage.js';
import { judgeClaims } from '../../src/write/faithfulness.js';
import { formatFallbacks, formatFlaggedItems, formatUsageTable } from '../../src/write/format-usage.js';
import { absentThemes } from '../../src/write/llm-edition.js';
import { asPromptData, loadPrompt, truncateToTokens } from '../../src/write/prompts.js';
import { quoteFound } from '../../src/write/sentences.js';
import { ruleLabel, validateEditionOutput, validateItemOutput } from '../../src/write/validate-output.js';
import { hfItems } from '../support/real-items.js';

describe('call limiter', () => {
  it('keeps at most `concurrency` calls in flight', async () => {
    const limiter = createCallLimiter({ concurrency: 2 });
    let inFlight = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, () =>
      limiter.run('openai', async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight -= 1;
      }),
    );
    let finished = 0;
    while (finished < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(inFlight).toBeLessThanOrEqual(2);
      const release = releases.shift();
      if (release) {
        release();
        finished += 1;
      }
    }
    await Promise.all(tasks);
    expect(peak).toBe(2);
  });

  it('starts at most `requestsPerMinute` calls per provider per window, other providers unaffected', async () => {
    const limiter = createCallLimiter({ concurrency: 8, requestsPerMinute: { openai: 2 }, intervalMs: 400 });
    const started: Record<string, number[]> = { openai: [], anthropic: [] };
    const t0 = Date.now();
    await Promise.all([
      ...Array.from({ length: 3 }, () =>
        limiter.run('openai', async () => started.openai!.push(Date.now() - t0)),
      ),
      ...Array.from({ length: 3 }, () =>
        limiter.run('anthropic', async () => started.anthropic!.push(Date.now() - t0)),
      ),
    ]);
    expect(started.openai!.sort((a, b) => a - b)[2]).toBeGreaterThanOrEqual(350);
    expect(Math.max(...started.anthropic!)).toBeLessThan(200);
  });
});

describe('the build report', () => {
  it('counts fallbacks with their reasons, most frequent first, and says nothing when there are none', () => {
    const meter = new UsageMeter(() => 0);
    for (const reason of ['summary too long', 'takeaways not 3', 'takeaways not 3', 'summary too long']) {
      meter.recordFallback(reason);
    }
    meter.recordFallback('takeaways not 3');
    meter.recordFallback('takeaways not 3');
    meter.recordFallback('summary too long');
    expect(formatFallbacks(meter.snapshot())).toBe(
      '7 written extractively (takeaways not 3 ×4, summary too long ×3)',
    );
    expect(formatFallbacks(new UsageMeter().snapshot())).toBeNull();
    const table = formatUsageTable({ ...meter.snapshot(), calls: 1 });
    expect(table).toMatch(/7 written extractively \(takeaways not 3 ×4, summary too long ×3\)/);
    expect(table).not.toMatch(/flagged by the faithfulness check/);
  });

  it('names the first rule a rejected answer broke', () => {
    expect(ruleLabel(['takeaways: give exactly 3 takeaways'])).toBe('takeaways not 3');
    expect(ruleLabel(['give exactly 3 takeaways, not 5'])).toBe('takeaways not 3');
    expect(ruleLabel(['summary has 150 words; it must have 50 to 110 words'])).toBe('summary too long');
    expect(ruleLabel(['summary has 12 words; it must have 50 to 110 words'])).toBe('summary too short');
    expect(ruleLabel(['the answer is not valid JSON; answer with the JSON object only'])).toBe('not JSON');
  });
});

describe('prices', () => {
  it('uses overrides, then the longest matching default, ollama free, unknown unpriced', () => {
    expect(priceOf('openai:gpt-4.1-mini-2025-04-14')).toMatchObject({ input: 0.4, output: 1.6, known: true });
    expect(priceOf('openai:gpt-4.1')).toMatchObject({ input: 2, output: 8 });
    expect(priceOf('anthropic:claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('openai:gpt-4.1', { 'gpt-4.1': { input: 1, output: 2 } })).toMatchObject({
      input: 1,
      output: 2,
    });
    expect(priceOf('ollama:llama3.1:8b')).toMatchObject({ input: 0, known: true });
    expect(priceOf('openai-compatible:qwen')).toMatchObject({ input: 0, known: false });
    expect(costOf({ input: 0.4, output: 1.6, known: true }, 1_000_000, 500_000)).toBeCloseTo(1.2);
  });
});

describe('verbatim quotes', () => {
  const source = 'We show that  agents fail on long tasks. Memory helps them “recover” in 4.5 hours.';
  it('folds case, whitespace and quote styles, and accepts elided quotes', () => {
    expect(quoteFound('we show that agents FAIL on long tasks', source)).toBe(true);
    expect(quoteFound('"Memory helps them "recover" in 4.5 hours."', source)).toBe(true);
    expect(quoteFound('We show that agents ... in 4.5 hours', source)).toBe(true);
  });
  it('rejects invented, partly invented and too short quotes', () => {
    expect(quoteFound('agents succeed on long tasks', source)).toBe(false);
    expect(quoteFound('We show that agents ... in 9 hours', source)).toBe(false);
    expect(quoteFound('agents fail', source)).toBe(false);
  });
  it('counts a supported verdict with a missing quote as unsupported, and skips non-factual summary sentences', () => {
    const verdicts = judgeClaims({
      claims: [
        { kind: 'takeaway', claim: 'Agents fail on long tasks.' },
        { kind: 'takeaway', claim: 'Memory is magic.' },
        { kind: 'summary', claim: 'A must-read for agent builders.' },
      ],
      answer: {
        claims: [
          { id: 1, factual: true, verdict: 'supported', quote: 'agents fail on long tasks' },
          { id: 2, factual: false, verdict: 'supported', quote: 'memory is magic and more' },
          { id: 3, factual: false, verdict: 'unsupported', quote: '' },
        ],
      },
      source,
    });
    expect(verdicts.map((verdict) => [verdict.verdict, verdict.factual])).toEqual([
      ['supported', true],
      ['unsupported', true],
      ['unsupported', false],
    ]);
    expect(verdicts[1]!.reason).toMatch(/not found/);
  });
});

describe('prompts', () => {
  it('are versioned by their declared version and content', () => {
    for (const name of ['item', 'edition', 'check'] as const) {
      expect(loadPrompt(name).version).toMatch(new RegExp(`^${name}-\\d+#[0-9a-f]{8}$`));
    }
  });
  it('neutralise angle brackets and cut long text at a sentence end', () => {
    expect(asPromptData('a </source_text>\n b')).toBe('a ‹/source_text› b');
    const long = 'This is one sentence of text. '.repeat(200);
    const cut = truncateToTokens(long, 200);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(800);
    expect(cut.text.endsWith('text.')).toBe(true);
  });
});

describe('usage table', () => {
  it('prints calls, cache hits, tokens, cost and wall time, and names flagged items', () => {
    let now = 1_000;
    const meter = new UsageMeter(() => now);
    meter.recordCall({
      model: 'openai:gpt-4.1-mini',
      tokensIn: 12_000,
      tokensOut: 3_000,
      latencyMs: 300,
      costUsd: 0.0096,
    });
    now = 3_500;
    meter.recordCacheHit('openai:gpt-4.1-mini');
    meter.recordCall({
      model: 'openai-compatible:qwen',
      tokensIn: 10,
      tokensOut: 5,
      latencyMs: 1,
      costUsd: 0,
      priced: false,
    });
    const table = formatUsageTable(meter.snapshot());
    // 3,000 tokens out in 300 ms of answering: 10,000 tokens/s.
    expect(table).toMatch(/openai:gpt-4\.1-mini\s+1\s+1\s+12,000\s+3,000\s+10000\.0\s+\$0\.0096/);
    expect(table).toMatch(/total\s+2\s+1\s+12,010\s+3,005\s+\$0\.0096/);
    expect(table).toMatch(/wall time 2\.5 s/);
    expect(table).toMatch(/no price known for openai-compatible:qwen/);
    const flagged = formatFlaggedItems([
      { title: 'Good', writer: 'openai:x', checks: { flagged: false } },
      {
        title: 'Shaky',
        writer: 'openai:x',
        checks: {
          flagged: true,
          status: 'flagged',
          claims: [{ claim: 'Cures all.', verdict: 'unsupported', factual: true }],
        },
      },
    ]);
    expect(flagged).toMatch(/1 item\(s\) need a look/);
    expect(flagged).toMatch(/Shaky \[flagged, openai:x\] 1 unsupported claim\(s\): "Cures all\."/);
    expect(formatFlaggedItems([{ title: 'Good', writer: 'extractive' }])).toBeNull();
  });
});

describe('edition output rules', () => {
  const intro =
    'This edition brings together 12 items for engineers. The strongest threads are agents and evaluation, with several entries on each.';
  it('wants two short themes joined by a comma, and a 2–4 sentence intro', () => {
    expect(validateEditionOutput({ title: 'Agents in Production, Safety Under Pressure', intro })).toEqual(
      [],
    );
    expect(validateEditionOutput({ title: 'Number of Items), Benchmarks', intro }).join(' ')).toMatch(
      /only words/,
    );
    expect(validateEditionOutput({ title: 'Agents', intro }).join(' ')).toMatch(/two short themes/);
    expect(validateEditionOutput({ title: 'Agents, Safety.', intro }).join(' ')).toMatch(/punctuation/);
    expect(
      validateEditionOutput({ title: 'Agents, Safety', intro: 'One sentence only here.' }).join(' '),
    ).toMatch(/1 sentence/);
  });

  it('rejects a header naming a theme no item is about', () => {
    const item = {
      ...hfItems()[0]!,
      title: 'Token compression for audio-video models',
      text: 'We compress tokens for faster inference.',
      summary: 'A compression method.',
      takeaways: ['a', 'b', 'c'] as [string, string, string],
      level: 'Intermediate' as const,
      levelReason: '',
      writer: 'x',
    };
    expect(absentThemes({ title: 'Efficient Inference, Robot Manipulation', intro }, [item])).toEqual(
      expect.arrayContaining(['robotics and embodied AI']),
    );
    expect(
      absentThemes({ title: 'Efficient Inference, Video Models', intro: 'Compression this week.' }, [item]),
    ).toEqual([]);
  });
});

describe('item output rules', () => {
  it('wants exactly 3 distinct one-sentence takeaways and a 50–110 word summary', () => {
    const summary = Array.from(
      { length: 6 },
      () => 'This paper studies how agents behave in long tasks.',
    ).join(' ');
    const support = [1, 2, 3].map(() => ({ quote: 'agents behave in long tasks', section: 'text' }));
    const base = { summary, level: 'Advanced' as const, levelReason: 'Formal analysis.', support };
    const two = validateItemOutput({
      ...base,
      takeaways: ['Agents fail on long tasks.', 'Memory helps them recover.'],
    });
    expect(two.join(' ')).toMatch(/exactly 3 takeaways/);
    const repeated = validateItemOutput({
      ...base,
      takeaways: ['Agents fail often.', 'agents  fail often.', 'Memory helps.'],
    });
    expect(repeated.join(' ')).toMatch(/repeat each other/);
    const twoSentences = validateItemOutput({
      ...base,
      takeaways: [
        'Agents fail on long tasks. Memory helps them.',
        'A second distinct point here.',
        'A third distinct point here.',
      ],
    });
    expect(twoSentences.join(' ')).toMatch(/more than one sentence/);
    expect(
      validateItemOutput({
        ...base,
        summary: 'Too short.',
        takeaways: ['Aa bb cc dd.', 'Ee ff gg hh.', 'Ii jj kk ll.'],
      }).join(' '),
    ).toMatch(/summary has 2 words/);
  });
});
