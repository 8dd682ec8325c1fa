// Every structured answer is bounded by its schema: each string has a maxLength, each array a length, so a grammar
// engine stops within a known number of tokens, and that bound is the call's max_tokens where the engine enforces it.
import type { JSONSchema7 } from '@ai-sdk/provider';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { maxTokensFor, tokenBound } from '../../src/llm/token-bound.js';
import { triageOutputSchemaFor } from '../../src/select/triage-prompt.js';
import {
  checkOutputSchemaFor,
  editionOutputSchema,
  itemOutputSchema,
} from '../../src/write/output-schema.js';

const json = async (schema: z.ZodType) => (await asSchema(schema).jsonSchema) as JSONSchema7;

/** Paths of strings without a maxLength and arrays without a maxItems. */
function unbounded(node: unknown, path = '$'): string[] {
  if (!node || typeof node !== 'object') return [];
  const schema = node as JSONSchema7;
  const found: string[] = [];
  if (schema.type === 'string' && schema.maxLength === undefined && !schema.enum) found.push(path);
  if (schema.type === 'array' && schema.maxItems === undefined) found.push(path);
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    found.push(...unbounded(child, `${path}.${name}`));
  if (schema.items && !Array.isArray(schema.items)) found.push(...unbounded(schema.items, `${path}[]`));
  return found;
}

describe('the schemas of every purpose', () => {
  it('bound every string and array; support has exactly 3 entries', async () => {
    const schemas = {
      write: await json(itemOutputSchema),
      edition: await json(editionOutputSchema),
      check: await json(checkOutputSchemaFor(6)),
      triage: await json(triageOutputSchemaFor(['1', '2', '3'])),
    };
    for (const [purpose, schema] of Object.entries(schemas)) {
      expect(unbounded(schema), purpose).toEqual([]);
      expect(Number.isFinite(tokenBound(schema)), purpose).toBe(true);
    }
    expect(schemas.write.properties?.support).toMatchObject({ minItems: 3, maxItems: 3 });
  });

  it('a write call is bounded at ≤ 900 tokens; the other purposes as docs/answer-bounds.md states', async () => {
    expect(tokenBound(await json(itemOutputSchema))).toBeLessThanOrEqual(900);
    expect(tokenBound(await json(editionOutputSchema))).toBeLessThanOrEqual(350);
    // The check: per claim judged (6 claims: 3 takeaways and about 3 summary sentences).
    expect(tokenBound(await json(checkOutputSchemaFor(6)))).toBeLessThanOrEqual(1_100);
    // Triage: a few tokens per candidate (40 a batch).
    const ids = Array.from({ length: 40 }, (_, index) => String(index + 1));
    expect(tokenBound(await json(triageOutputSchemaFor(ids)))).toBeLessThanOrEqual(400);
  });

  it('a string without maxLength or an array without maxItems has no bound', () => {
    expect(tokenBound({ type: 'string' })).toBe(Number.POSITIVE_INFINITY);
    expect(tokenBound({ type: 'array', items: { type: 'string', maxLength: 10 } })).toBe(
      Number.POSITIVE_INFINITY,
    );
    // Braces 2; the key "a" 3, colon, space and comma 3; the string: quotes 2, 40 characters 10 (4 a token).
    expect(tokenBound({ type: 'object', properties: { a: { type: 'string', maxLength: 40 } } })).toBe(20);
  });
});

describe('max_tokens', () => {
  const schema: JSONSchema7 = { type: 'object', properties: { a: { type: 'string', maxLength: 350 } } };

  it('is the bound for a grammar engine, never above the configured cap; the configured cap elsewhere', () => {
    expect(maxTokensFor('ollama', schema, 2_000)).toBe(tokenBound(schema));
    expect(maxTokensFor('openai-compatible', schema, 50)).toBe(50);
    // OpenAI drops maxLength in strict mode, and its reasoning models spend max_tokens on thinking.
    expect(maxTokensFor('openai', schema, 2_000)).toBe(2_000);
    expect(maxTokensFor('anthropic', schema, 2_000)).toBe(2_000);
    expect(maxTokensFor('ollama', { type: 'string' }, 2_000)).toBe(2_000);
  });
});
