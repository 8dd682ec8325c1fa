// How many tokens an answer of a JSON schema can take at most, when the engine enforces the schema while decoding
// (llama.cpp, Ollama, vLLM, LM Studio): every string has a maxLength and every array a maxItems, so the grammar
// closes the answer within a known length. That bound becomes the call's max_tokens, so a weak model that never
// closes a string is stopped by the grammar, not by a 2,000-token cap. A schema with an unbounded string or array has
// no bound (Infinity), and the configured llm.maxOutputTokens applies.
import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';
import type { ProviderName } from '../config/llm-schema.js';

/**
 * Characters a token of written text carries on average (English prose runs at about 4 on the common tokenizers).
 * The strings' maxLength already leaves capability for long words, so the bound counts prose at 4; punctuation, keys and
 * numbers are counted a token a character: tokenizers split them that finely.
 */
const CHARS_PER_TOKEN = 4;
/** A number's digits, a boolean, `null`. */
const SCALAR_TOKENS = 4;
/** Between a key and its value and after the value: the colon, a space the grammar allows, the comma. */
const SEPARATOR_TOKENS = 3;

/** The most tokens an answer of `schema` takes, punctuation and keys included; Infinity when a part is unbounded. */
export function tokenBound(schema: JSONSchema7Definition): number {
  if (typeof schema === 'boolean') return schema ? Number.POSITIVE_INFINITY : 0;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return Math.max(...alternatives.map(tokenBound));
  if (schema.enum)
    return Math.max(...schema.enum.map((value: unknown) => textTokens(JSON.stringify(value).length)));
  if (schema.const !== undefined) return textTokens(JSON.stringify(schema.const).length);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectBound(schema);
    case 'array': {
      if (schema.maxItems === undefined || !schema.items || Array.isArray(schema.items)) {
        return Number.POSITIVE_INFINITY;
      }
      // Brackets, then each entry, its comma and a space.
      return 2 + schema.maxItems * (tokenBound(schema.items) + 2);
    }
    case 'string':
      // The quotes, then at worst the whole length.
      return schema.maxLength === undefined ? Number.POSITIVE_INFINITY : 2 + textTokens(schema.maxLength);
    default:
      return SCALAR_TOKENS;
  }
}

function objectBound(schema: JSONSchema7): number {
  let total = 2;
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    // `"name": ` and the comma after the value.
    total += name.length + 2 + SEPARATOR_TOKENS + tokenBound(child);
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    return Number.POSITIVE_INFINITY;
  }
  return total;
}

function textTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Providers whose engine enforces the whole schema while decoding (a JSON-schema grammar), so the bound holds:
 * OpenAI's strict mode drops maxLength (provider-schema.ts) and Anthropic's moves it into a description, and their
 * reasoning models spend max_tokens on thinking too, so they keep `llm.maxOutputTokens`.
 */
export function enforcesSchema(provider: ProviderName): boolean {
  return provider === 'ollama' || provider === 'openai-compatible';
}

/** The call's max_tokens: the schema's bound where the engine enforces it, never above the configured cap. */
export function maxTokensFor(provider: ProviderName, schema: JSONSchema7, configured: number): number {
  if (!enforcesSchema(provider)) return configured;
  return Math.min(configured, tokenBound(schema));
}
