// The real HTTP path: createWriter → provider registry → AI SDK providers → loopback fake LLM server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import type { WrittenItem } from '../../src/core/types.js';
import type { LlmClientOptions } from '../../src/llm/client.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import type { ItemChecks } from '../../src/write/faithfulness.js';
import { createWriter, formatUsageTable } from '../../src/write/index.js';
import type { WriterContext } from '../../src/write/types.js';
import { type FakeBehaviour, type FakeLlm, type FakeLlmOptions, startFakeLlm } from '../support/fake-llm.js';
import { hfItems } from '../support/real-items.js';

let store: Store;
let fake: FakeLlm | undefined;
beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const context: WriterContext = {
  name: 'LLM News Digest',
  audience: 'engineers building production AI systems',
  log: silentLogger,
};
const items = hfItems('daily_papers_2026-06-12.json').slice(0, 3);
let unique = 0;

async function start(options: FakeLlmOptions = {}) {
  fake = await startFakeLlm(options);
  return fake;
}

function writerFor(server: FakeLlm, model: string, extra: Partial<LlmClientOptions> = {}) {
  return createWriter({
    llm: { write: model, timeoutMs: 5_000, maxRetries: 0, ...extra.llm },
    store,
    log: silentLogger,
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: server.baseURL,
      ANTHROPIC_API_KEY: 'ant-test',
      ANTHROPIC_BASE_URL: server.baseURL,
      OLLAMA_BASE_URL: server.baseURL,
      VLLM_KEY: 'vllm-secret',
    },
    ...extra,
  });
}

const checksOf = (item: WrittenItem) => item.checks as ItemChecks;
const onlyFirstItem = (behaviour: FakeBehaviour) => (request: { kind: string }, index: number) =>
  request.kind === 'item' && index === 0 ? behaviour : 'valid';

describe('each provider gets the JSON schema and writes the items', () => {
  it('openai: (responses API) with OPENAI_BASE_URL', async () => {
    const server = await start();
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const { writer, usage } = writerFor(server, model);
    const written = await writer.writeItems(items, context);
    expect(written.every((item) => item.writer === model && checksOf(item).status === 'passed')).toBe(true);
    const first = server.requests[0]!;
    expect(first.api).toBe('responses');
    expect(first.headers.authorization).toBe('Bearer sk-test');
    expect(first.body.text).toMatchObject({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(usage()).toMatchObject({ calls: 6, cacheHits: 0 });
    expect(usage().costUsd).toBeGreaterThan(0);
  });

  it('openai: with openaiApi "chat" for gateways that only speak chat completions', async () => {
    const server = await start();
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const { writer } = writerFor(server, model, { llm: { write: model, maxRetries: 0, openaiApi: 'chat' } });
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(item!.writer).toBe(model);
    expect(server.requests.every((request) => request.api === 'chat')).toBe(true);
    expect(server.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('anthropic: with ANTHROPIC_BASE_URL', async () => {
    const server = await start();
    const model = `anthropic:claude-sonnet-4-5-${++unique}`;
    const written = await writerFor(server, model).writer.writeItems(items.slice(0, 1), context);
    expect(written[0]!.writer).toBe(model);
    const first = server.requests[0]!;
    expect(first.api).toBe('anthropic');
    expect(first.headers['x-api-key']).toBe('ant-test');
    const schemaSent =
      JSON.stringify(first.body.output_config ?? '').includes('"schema"') ||
      JSON.stringify(first.body.tools ?? '').includes('input_schema');
    expect(schemaSent).toBe(true);
  });

  it('ollama: chat completions with response_format json_schema (model ids may contain ":")', async () => {
    const server = await start();
    const model = `ollama:llama3.1:8b-${++unique}`;
    const written = await writerFor(server, model).writer.writeItems(items.slice(0, 1), context);
    expect(written[0]!.writer).toBe(model);
    const first = server.requests[0]!;
    expect(first.api).toBe('chat');
    expect(first.model).toBe(`llama3.1:8b-${unique}`);
    expect(first.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object' } },
    });
  });

  it('openai-compatible: configured baseURL and key from the named variable', async () => {
    const server = await start();
    const model = `openai-compatible:qwen-${++unique}`;
    const { writer } = writerFor(server, model, {
      llm: {
        write: model,
        maxRetries: 0,
        openaiCompatible: { baseURL: server.baseURL, apiKeyEnv: 'VLLM_KEY' },
      },
    });
    const written = await writer.writeItems(items.slice(0, 1), context);
    expect(written[0]!.writer).toBe(model);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer vllm-secret');
    expect(server.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema' });
  });
});

describe('rebuild', () => {
  it('makes 0 requests when nothing changed, and --refresh calls again', async () => {
    const server = await start();
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const first = writerFor(server, model);
    const written = await first.writer.writeItems(items, context);
    await first.writer.writeEdition(
      items.map((item, index) => ({ ...item, ...written[index]! })),
      context,
    );
    const requests = server.count();
    expect(requests).toBe(7);

    const second = writerFor(server, model);
    const rewritten = await second.writer.writeItems(items, context);
    await second.writer.writeEdition(
      items.map((item, index) => ({ ...item, ...rewritten[index]! })),
      context,
    );
    expect(server.count()).toBe(requests);
    expect(rewritten).toEqual(written);
    expect(second.usage()).toMatchObject({ calls: 0, cacheHits: 7 });

    await writerFor(server, model, { run: { refresh: true } }).writer.writeItems(items.slice(0, 1), context);
    expect(server.count()).toBe(requests + 2);
  });
});

describe('failures: the items are still written and the failure shows', () => {
  it('429 with Retry-After: waits as told, retries, succeeds', async () => {
    const server = await start({ script: onlyFirstItem({ status: 429, retryAfter: '0.3' }) });
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const { writer } = writerFor(server, model, { llm: { write: model, maxRetries: 2 } });
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(item!.writer).toBe(model);
    const [refused, retried] = server.requests.filter((request) => request.kind === 'item');
    const waited = retried!.at - refused!.at;
    // Retry-After said 0.3 s; the SDK's own first backoff would be 2 s.
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(1_500);
  });

  it('500: the item falls back to the extractive writer, and the usage table shows the failed call', async () => {
    const server = await start({
      script: (request) => (request.kind === 'item' ? { status: 500 } : 'valid'),
    });
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const { writer, usage } = writerFor(server, model);
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(item!.writer).toBe('extractive');
    expect(checksOf(item!)).toMatchObject({ status: 'fallback', flagged: true });
    expect(checksOf(item!).notes[0]).toMatch(/fake 500|500/);
    expect(usage()).toMatchObject({ failedCalls: 1, fallbackItems: 1 });
    expect(formatUsageTable(usage())).toMatch(/1 written extractively \(HTTP 500 ×1\) · 1 failed call\(s\)/);
  });

  it('a hang: the per-call timeout aborts it and the item falls back', async () => {
    const server = await start({ script: onlyFirstItem('hang') });
    const model = `anthropic:claude-sonnet-4-5-${++unique}`;
    const { writer } = writerFor(server, model, { llm: { write: model, timeoutMs: 400, maxRetries: 0 } });
    const startedAt = Date.now();
    const [item] = await writer.writeItems(items.slice(0, 1), context);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(item!.writer).toBe('extractive');
    expect(checksOf(item!).notes[0]).toMatch(/timed out|abort/i);
  });

  it('schema-violating output is repaired with one more request', async () => {
    const server = await start({ script: onlyFirstItem('schema-violation') });
    const model = `ollama:qwen3-${++unique}`;
    const [item] = await writerFor(server, model).writer.writeItems(items.slice(0, 1), context);
    expect(item!.writer).toBe(model);
    expect(checksOf(item!).repaired).toBe(true);
    expect(server.requests.filter((request) => request.kind === 'item')[1]!.lastUser).toMatch(
      /broke these rules/,
    );
  });

  it('invalid JSON twice: fallback, marked in the item', async () => {
    const server = await start({ script: (request) => (request.kind === 'item' ? 'invalid-json' : 'valid') });
    const model = `openai:gpt-4.1-mini-${++unique}`;
    const [item] = await writerFor(server, model).writer.writeItems(items.slice(0, 1), context);
    expect(server.count('item')).toBe(2);
    expect(item!.writer).toBe('extractive');
    expect(checksOf(item!).notes[0]).toMatch(/not valid JSON/);
  });
});

describe('createWriter without a usable model', () => {
  it('says once how to configure a provider, and writes extractively', () => {
    const none = createWriter({ llm: {}, store, log: silentLogger, env: {} });
    expect(none.writer.name).toBe('extractive');
    expect(none.notice).toMatch(/No LLM configured.*openai:gpt-4.1-mini.*OPENAI_API_KEY/s);
    const offline = createWriter({
      llm: { write: 'openai:gpt-4.1-mini' },
      store,
      log: silentLogger,
      env: {},
      run: { offline: true },
    });
    expect(offline.writer.name).toBe('extractive');
    expect(() =>
      createWriter({ llm: {}, run: { modelOverride: 'gpt-4' }, store, log: silentLogger, env: {} }),
    ).toThrow(/provider:model/);
  });
});
