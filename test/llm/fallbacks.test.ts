// llm.fallbacks: which failures move a call to the next model, and what a missing key or a bad id says.
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { llmSchema } from '../../src/config/llm-schema.js';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/ports.js';
import { NotCachedError } from '../../src/llm/cache-layer.js';
import { CallTimeoutError, ProviderUnavailableError } from '../../src/llm/call-errors.js';
import { createLlmClient } from '../../src/llm/client.js';
import { downVerdict, fallbackModel } from '../../src/llm/fallback-model.js';

const apiError = (statusCode: number | undefined, isRetryable: boolean) =>
  new APICallError({
    message: statusCode ? `HTTP ${statusCode}` : 'Cannot connect to API: ECONNREFUSED',
    url: 'http://127.0.0.1:1/v1/chat/completions',
    requestBodyValues: {},
    ...(statusCode ? { statusCode } : {}),
    isRetryable,
  });

const answer = {
  content: [{ type: 'text' as const, text: '{}' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  },
  warnings: [],
};

const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

describe('downVerdict', () => {
  it('5xx, 429, a refused connection and an open breaker are the provider down; a timeout moves one call', () => {
    expect(downVerdict(apiError(503, true))).toBe('down');
    expect(downVerdict(apiError(429, true))).toBe('down');
    expect(downVerdict(apiError(undefined, true))).toBe('down');
    expect(downVerdict(new ProviderUnavailableError('breaker open'))).toBe('down');
    expect(downVerdict(new CallTimeoutError('no answer within 1000 ms'))).toBe('this-call');
    expect(downVerdict(new NotCachedError())).toBe('this-call');
  });

  it("a bad request or an abort is the call's own failure", () => {
    expect(downVerdict(apiError(400, false))).toBe('own');
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(downVerdict(abort)).toBe('own');
  });
});

describe('fallbackModel', () => {
  it('a provider down once is skipped for the rest of the run, and the stand-in is counted', async () => {
    const primary = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiError(502, true);
      },
    });
    const backup = new MockLanguageModelV3({ doGenerate: answer });
    const warnings: string[] = [];
    const standIns: string[] = [];
    const model = fallbackModel({
      chain: [
        { modelId: 'openai:a', model: primary },
        { modelId: 'ollama:b', model: backup },
      ],
      down: new Map(),
      log: { warn: (line) => warnings.push(line) },
      onStandIn: (modelId) => standIns.push(modelId),
    });
    await model.doGenerate(params);
    await model.doGenerate(params);
    expect(primary.doGenerateCalls).toHaveLength(1);
    expect(backup.doGenerateCalls).toHaveLength(2);
    expect(standIns).toEqual(['ollama:b', 'ollama:b']);
    expect(warnings).toEqual(['openai:a is down (HTTP 502): the remaining calls go to ollama:b.']);
  });

  it("throws the call's own failure without trying the next model", async () => {
    const primary = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiError(400, false);
      },
    });
    const backup = new MockLanguageModelV3({ doGenerate: answer });
    const model = fallbackModel({
      chain: [
        { modelId: 'openai:a', model: primary },
        { modelId: 'ollama:b', model: backup },
      ],
      down: new Map(),
      log: silentLogger,
    });
    await expect(model.doGenerate(params)).rejects.toThrow(/HTTP 400/);
    expect(backup.doGenerateCalls).toHaveLength(0);
  });
});

describe('llm.fallbacks in the config', () => {
  it('takes provider:model ids, and names the field when one is not', () => {
    expect(llmSchema.parse({ fallbacks: ['ollama:qwen3:8b'] }).fallbacks).toEqual(['ollama:qwen3:8b']);
    const bad = llmSchema.safeParse({ fallbacks: ['gpt-4'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['fallbacks', 0]);
  });

  it('a fallback without its key stops the build before any work, naming llm.fallbacks', () => {
    const llmClient = () =>
      createLlmClient({
        llm: { write: 'ollama:qwen3:8b', fallbacks: ['openai:gpt-4.1-mini'] },
        store: { cache: { get: async () => null, put: async () => {} } },
        log: silentLogger,
        env: {},
      });
    expect(llmClient).toThrow(ConfigError);
    expect(llmClient).toThrow(/fallback model.*OPENAI_API_KEY/);
    const model = createLlmClient({
      llm: { write: 'ollama:qwen3:8b', fallbacks: ['openai:gpt-4.1-mini', 'ollama:llama3.2'] },
      store: { cache: { get: async () => null, put: async () => {} } },
      log: silentLogger,
      env: { OPENAI_API_KEY: 'sk-test' },
    }).model('write');
    expect(model?.models).toEqual(['ollama:qwen3:8b', 'openai:gpt-4.1-mini', 'ollama:llama3.2']);
  });
});
