// The JSON schema of an answer, in the form each provider honours. Our schemas are as strict as our rules (exactly 3
// takeaways, one score per candidate, enums, every field required), and grammar-constrained engines (llama.cpp,
// vLLM, LM Studio, Ollama's `format`) enforce all of it while decoding. OpenAI's strict structured outputs refuse a
// request whose schema uses keywords outside their subset, so for `openai:` those keywords are dropped here — the
// answer is still validated against the full schema when it comes back (callStructured), and repaired if it breaks
// them. Anthropic's provider already rewrites its schema for its own subset (moving the limits into descriptions).
import type { JSONSchema7, LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { ProviderName } from '../config/llm-schema.js';

/** Keywords OpenAI's strict mode rejects (its documented subset leaves them out). */
export const OPENAI_STRICT_UNSUPPORTED = [
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
] as const;

const DROPPED: Partial<Record<ProviderName, readonly string[]>> = {
  openai: OPENAI_STRICT_UNSUPPORTED,
};

/** The schema as sent to `provider`: the same object when the provider takes it whole, else a pruned copy. */
export function schemaForProvider(provider: ProviderName, schema: JSONSchema7): JSONSchema7 {
  const dropped = DROPPED[provider];
  return dropped ? (prune(schema, new Set(dropped)) as JSONSchema7) : schema;
}

function prune(node: unknown, dropped: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((entry) => prune(entry, dropped));
  if (!node || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Keys of `properties` are names, not keywords: a field called "format" stays.
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      result[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, prune(child, dropped)]),
      );
      continue;
    }
    if (dropped.has(key)) continue;
    result[key] = prune(value, dropped);
  }
  return result;
}

/** The LLM client's layer that puts each call's schema in its provider's form (innermost, so the cache key is unchanged). */
export function schemaLayer(provider: ProviderName): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const format = params.responseFormat;
      if (format?.type !== 'json' || !format.schema) return params;
      const schema = schemaForProvider(provider, format.schema);
      return schema === format.schema ? params : { ...params, responseFormat: { ...format, schema } };
    },
  };
}
