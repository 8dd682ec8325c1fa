// `digest build` the way a user runs a model on their own machine, and when a provider goes down: the real CLI, the
// AI SDK's providers, loopback fakes of the outside servers (a one-slot llama.cpp-like engine; an OpenAI that starts
// failing mid-build, with an Ollama behind it as the fallback).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import type { UsageReport } from '../../src/llm/usage.js';
import { runDigest } from '../support/cli.js';
import { startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-06-22';

describe('digest build with a local engine or a fallback model', () => {
  let feeds: LoopbackServer;
  const folders: string[] = [];

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
  });
  afterAll(async () => {
    await feeds.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  function project(llm: Record<string, unknown>): string {
    const cwd = mkdtempSync(join(tmpdir(), 'digest-local-'));
    folders.push(cwd);
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm,
      }),
    );
    return cwd;
  }
  const editionOf = (cwd: string) =>
    JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition & {
      usage: UsageReport;
    };

  it('a one-slot local server at 300 ms a call, timeoutMs 1 s, every other setting default: no timeout, $0', async () => {
    // The 3 s a call against a 10 s timeout, scaled down tenfold.
    const engine = await startFakeLlm({ slots: 1, latencyMs: 300 });
    try {
      const model = 'openai-compatible:tiny';
      const cwd = project({ write: model, timeoutMs: 1_000, openaiCompatible: { baseURL: engine.baseURL } });
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env: {} });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/timed out|time\(s\) in a row|asked again/i);
      expect(run.stderr).not.toMatch(/no price known|llm\.prices/);
      const edition = editionOf(cwd);
      expect(edition.items.map((item) => item.writer)).toEqual([model, model, model, model]);
      expect(edition.usage).toMatchObject({
        costUsd: 0,
        failedCalls: 0,
        requeuedCalls: 0,
        unpricedModels: [],
      });
      // Asked at /props, it said one slot: never a second request in its line.
      expect(engine.peakOpen()).toBe(1);
      expect(run.stderr).toMatch(/openai-compatible: the engine reports 1 slot\(s\), 1 call\(s\) at a time/);
      const itemCall = engine.requests.find((request) => request.kind === 'item')!;
      const schema = (itemCall.body.response_format as { json_schema: { schema: Record<string, unknown> } })
        .json_schema.schema as { properties: { takeaways: Record<string, unknown> } };
      expect(schema.properties.takeaways).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
      // The usage table shows the model's speed; the progress lines the calls running and waiting.
      expect(run.stderr).toMatch(/tokens\/s/);
      expect(run.stderr).toMatch(
        /written 4\/4 · calls: \d+ running, \d+ waiting · openai-compatible:tiny [\d.]+ tokens\/s/,
      );
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('an outage mid-build moves the remaining calls to the fallback model; the edition says who wrote what', async () => {
    const failing = { status: 503, retryAfter: '0' } as const;
    // Triage and the first two item calls are answered; from then on the provider is down.
    const openai = await startFakeLlm({
      script: (request, index) =>
        request.kind === 'triage' || (request.kind === 'item' && index < 2) ? 'valid' : failing,
    });
    const ollama = await startFakeLlm();
    try {
      const primary = 'openai:gpt-4.1-mini';
      const fallback = 'ollama:qwen3:8b';
      const cwd = project({ write: primary, fallbacks: [fallback] });
      const env = {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseURL,
        OLLAMA_BASE_URL: ollama.baseURL,
      };
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env });
      // Calls failed (the scheduler should know the provider is down), but no item was written extractively.
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(
        /openai:gpt-4\.1-mini is down \(HTTP 503.*\): the remaining calls go to ollama:qwen3:8b/,
      );
      const edition = editionOf(cwd);
      const writers = edition.items.map((item) => item.writer).sort();
      expect(writers).toEqual([fallback, fallback, primary, primary]);
      expect(run.stderr).toMatch(
        /Items written by: .*openai:gpt-4\.1-mini ×2.*|Items written by: .*ollama:qwen3:8b ×2/,
      );
      expect(openai.count('edition')).toBe(0);
      expect(ollama.count('edition')).toBe(1);
      expect(ollama.count('item')).toBe(2);
      expect(edition.usage.fallbackItems).toBe(0);
      expect(edition.usage.standInCalls).toBeGreaterThanOrEqual(5);
      expect(run.stderr).toMatch(
        /not written as asked: \d+ failed call\(s\); \d+ call\(s\) answered by a fallback model/,
      );
      expect(edition.usage.byModel[primary]!.calls).toBeGreaterThan(0);
      expect(edition.usage.byModel[fallback]).toMatchObject({ costUsd: 0 });
      expect(edition.usage.byModel[fallback]!.tokensOut).toBeGreaterThan(0);
    } finally {
      await openai.close();
      await ollama.close();
    }
  }, 120_000);
});
