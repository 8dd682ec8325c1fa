// The JSON schema the LLM client actually sends, captured on the wire by a loopback server for each provider kind: as
// strict as the rules where the provider takes it (exactly 3 takeaways), pruned only for OpenAI's strict mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import { LEVELS } from '../../src/core/types.js';
import { schemaForProvider } from '../../src/llm/provider-schema.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createWriter } from '../../src/write/index.js';
import type { WriterContext } from '../../src/write/types.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { hfItems } from '../support/real-items.js';

let store: Store;
let fake: FakeLlm;
beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake?.close();
  await store?.close();
});

const context: WriterContext = { name: 'LLM News Digest', audience: 'engineers', log: silentLogger };
const [item] = hfItems('daily_papers_2026-06-12.json');
let unique = 0;

type Json = Record<string, unknown>;

/** Writes one item with `model` and returns the item request's body as the server received it. */
async function itemRequestBody(model: string, llm: Json = {}): Promise<Json> {
  const before = fake.requests.length;
  const { writer } = createWriter({
    llm: { write: model, checkEnabled: false, maxRetries: 0, timeoutMs: 5_000, ...llm },
    store,
    log: silentLogger,
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseURL,
      ANTHROPIC_API_KEY: 'ant-test',
      ANTHROPIC_BASE_URL: fake.baseURL,
      OLLAMA_BASE_URL: fake.baseURL,
    },
  });
  const [written] = await writer.writeItems([item!], context);
  expect(written!.writer).toBe(model);
  const request = fake.requests.slice(before).find((entry) => entry.kind === 'item');
  return request!.body;
}

const takeawaysOf = (schema: unknown) =>
  (schema as { properties: { takeaways: Json; level: Json } }).properties;

describe('the schema on the wire', () => {
  it('ollama: response_format json_schema with exactly 3 takeaways and the level enum', async () => {
    const body = await itemRequestBody(`ollama:qwen3:8b-${++unique}`);
    const format = body.response_format as { type: string; json_schema: { schema: Json } };
    expect(format.type).toBe('json_schema');
    const { takeaways, level } = takeawaysOf(format.json_schema.schema);
    expect(takeaways).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
    expect(level).toMatchObject({ enum: [...LEVELS] });
    expect((format.json_schema.schema as { required: string[] }).required).toEqual(
      expect.arrayContaining(['summary', 'takeaways', 'level', 'levelReason']),
    );
  });

  it('openai-compatible (llama.cpp, vLLM, LM Studio): exactly 3 takeaways', async () => {
    const model = `openai-compatible:local-${++unique}`;
    const body = await itemRequestBody(model, { openaiCompatible: { baseURL: fake.baseURL } });
    const format = body.response_format as { json_schema: { schema: Json } };
    expect(takeawaysOf(format.json_schema.schema).takeaways).toMatchObject({ minItems: 3, maxItems: 3 });
  });

  it('openai (responses and chat): strict, with the keywords strict mode refuses left out', async () => {
    const responses = await itemRequestBody(`openai:gpt-4.1-mini-${++unique}`);
    const format = (responses.text as { format: { strict: boolean; schema: Json } }).format;
    expect(format.strict).toBe(true);
    expect(takeawaysOf(format.schema).takeaways).toEqual(
      expect.objectContaining({ type: 'array', items: { type: 'string' } }),
    );
    expect(JSON.stringify(format.schema)).not.toMatch(/minItems|maxItems/);
    expect(takeawaysOf(format.schema).level).toMatchObject({ enum: expect.any(Array) });

    const chat = await itemRequestBody(`openai:gpt-4.1-mini-${++unique}`, { openaiApi: 'chat' });
    const chatFormat = chat.response_format as { json_schema: { strict: boolean; schema: Json } };
    expect(chatFormat.json_schema.strict).toBe(true);
    expect(JSON.stringify(chatFormat.json_schema.schema)).not.toMatch(/minItems|maxItems/);
  });

  it('anthropic: the schema in the form its structured output takes, the count kept in words', async () => {
    const body = await itemRequestBody(`anthropic:claude-sonnet-4-5-${++unique}`);
    const native = (body.output_config as { format?: { schema: Json } } | undefined)?.format?.schema;
    const tool = (body.tools as { input_schema: Json }[] | undefined)?.[0]?.input_schema;
    const schema = native ?? tool;
    expect(schema).toBeDefined();
    const { takeaways } = takeawaysOf(schema);
    if (native) {
      // Anthropic's own subset has no item counts: the provider moves them into the description.
      expect(takeaways.minItems).toBeUndefined();
      expect(String(takeaways.description)).toMatch(/min items: 3/);
    } else {
      expect(takeaways).toMatchObject({ minItems: 3, maxItems: 3 });
    }
  });
});

describe('schemaForProvider', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      format: { type: 'string' as const, maxLength: 10 },
      list: { type: 'array' as const, items: { type: 'number' as const, minimum: 0 }, minItems: 3 },
    },
    required: ['format', 'list'],
  };

  it('drops only the keywords OpenAI strict mode refuses, never a property that shares a name', () => {
    expect(schemaForProvider('openai', schema)).toEqual({
      type: 'object',
      properties: { format: { type: 'string' }, list: { type: 'array', items: { type: 'number' } } },
      required: ['format', 'list'],
    });
  });

  it('sends the whole schema to engines that constrain decoding with it', () => {
    expect(schemaForProvider('ollama', schema)).toBe(schema);
    expect(schemaForProvider('openai-compatible', schema)).toBe(schema);
  });
});
