// `digest build` against a REAL local inference engine on loopback: llama.cpp through node-llama-cpp (CPU, one slot)
// serving the OpenAI-compatible API, with the tiny model scripts/make-tiny-gguf.mjs makes. The engine's JSON-schema
// grammar makes its answers valid JSON of the schema we send; the tiny model's text (empty strings) then fails the
// content rules, so every item falls back to the extractive writer: the expected path, and the report must say so.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { tokenBound } from '../../src/llm/token-bound.js';
import type { UsageReport } from '../../src/llm/usage.js';
import { runDigest } from '../support/cli.js';
import { announceSkip } from '../support/environment.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import {
  type EngineExchange,
  engineProblem,
  type RealEngine,
  startRealEngine,
} from '../support/real-engine.js';

const WEEK = '2026-06-22';
const MODEL = 'openai-compatible:tiny-llama';
const problem = await engineProblem();
if (problem) announceSkip('e2e/real-engine', problem);

const propertiesOf = (exchange: EngineExchange) =>
  (exchange.schema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
const isItemSchema = (exchange: EngineExchange) => typeof propertiesOf(exchange).takeaways === 'object';

describe.skipIf(problem !== null)('digest build against a real local engine (llama.cpp, one slot)', () => {
  let feeds: LoopbackServer;
  let engine: RealEngine;
  let cwd: string;
  let run: Awaited<ReturnType<typeof runDigest>>;
  let edition: Edition;

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    engine = await startRealEngine();
    cwd = mkdtempSync(join(tmpdir(), 'digest-engine-build-'));
    // Every LLM setting is the default: the LLM client must find the engine's one slot by itself.
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { write: MODEL, openaiCompatible: { baseURL: engine.baseURL } },
      }),
    );
    run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env: {} });
    edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
  }, 120_000);

  afterAll(async () => {
    await engine?.close();
    await feeds?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('builds the edition: 4 items, every one written extractively after the engine answered', () => {
    expect(run.code, run.stderr).toBe(3);
    expect(edition.items).toHaveLength(4);
    for (const item of edition.items) expect(item.writer).toBe('extractive');
    expect(engine.exchanges().filter(isItemSchema).length).toBeGreaterThanOrEqual(4);
  });

  it('the schema reaches the grammar: the engine returns exactly 3 takeaways because the schema asks for 3', () => {
    const items = engine.exchanges().filter(isItemSchema);
    for (const exchange of items) {
      const takeaways = propertiesOf(exchange).takeaways;
      expect(takeaways).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
      const answer = JSON.parse(exchange.text) as { takeaways: unknown[] };
      expect(answer.takeaways).toHaveLength(3);
    }
  });

  it('every call is bounded by its schema: max_tokens is the bound, and no write call goes above it (≤ 900)', () => {
    const exchanges = engine.exchanges();
    for (const exchange of exchanges) {
      const bound = tokenBound(exchange.schema as JSONSchema7);
      expect(exchange.maxTokens).toBe(bound);
      expect(exchange.usage.completion_tokens).toBeLessThanOrEqual(bound);
    }
    const writes = exchanges.filter(isItemSchema);
    expect(writes.length).toBeGreaterThan(0);
    for (const exchange of writes) expect(exchange.maxTokens).toBeLessThanOrEqual(900);
  });

  it('one slot, 4 items to write: no call times out and none waits in the engine line', () => {
    expect(run.stderr).not.toMatch(/timed out/i);
    const exchanges = engine.exchanges();
    expect(exchanges.every((exchange) => exchange.finish === 'stop')).toBe(true);
    // The LLM client read /props total_slots = 1 and sent one call at a time.
    expect(Math.max(...exchanges.map((exchange) => exchange.inFlightOnArrival))).toBe(1);
  });

  it("counts the engine's own tokens", () => {
    const exchanges = engine.exchanges();
    const usage = edition.usage as UsageReport;
    expect(usage.tokensIn).toBe(exchanges.reduce((sum, exchange) => sum + exchange.usage.prompt_tokens, 0));
    expect(usage.tokensOut).toBe(
      exchanges.reduce((sum, exchange) => sum + exchange.usage.completion_tokens, 0),
    );
    expect(usage.calls).toBe(exchanges.length);
  });

  it('a model on loopback costs nothing and draws no price warning', () => {
    expect((edition.usage as UsageReport).costUsd).toBe(0);
    expect(run.stderr).not.toMatch(/no price known/);
  });

  it('the report names the fallbacks and claims no faithfulness check that did not run', () => {
    // The engine's answers are valid JSON with empty strings: the summary rule is the first they break.
    expect(run.stderr).toMatch(/4 written extractively \(summary too short ×4\)/);
    expect(run.stderr).not.toMatch(/flagged by the faithfulness check/);
    expect((edition.usage as UsageReport).fallbackItems).toBe(4);
  });
});
