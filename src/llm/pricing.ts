// Cost of a call from its token counts. USD per 1M tokens (input / output), public list prices as of 2025;
// `llm.prices` in the config overrides or extends them (by full id "openai:gpt-4.1-mini" or bare model name).
// Local models (ollama:, an openai-compatible: server on a loopback or private address) cost 0 and are priced: no
// warning. A model in neither table is priced at 0 and reported as unpriced.
import type { PriceTable } from '../config/llm-schema.js';

export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
};

export interface Price {
  input: number;
  output: number;
  /** False when the model is in no table (cost counted as 0). */
  known: boolean;
}

/** `local`: the model runs on the user's own machine or network (providers.ts `isLocalModel`), so it costs 0. */
export function priceOf(modelId: string, overrides: PriceTable = {}, local = false): Price {
  const separator = modelId.indexOf(':');
  const provider = modelId.slice(0, separator);
  const model = modelId.slice(separator + 1);
  const override = overrides[modelId] ?? overrides[model];
  if (override) return { ...override, known: true };
  if (local || provider === 'ollama') return { input: 0, output: 0, known: true };
  // Dated snapshots ("gpt-4.1-mini-2025-04-14", "claude-sonnet-4-5-20250929") take the longest matching prefix.
  const match = Object.keys(DEFAULT_PRICES)
    .filter((name) => model === name || model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  const price = match ? DEFAULT_PRICES[match] : undefined;
  return price ? { ...price, known: true } : { input: 0, output: 0, known: false };
}

export function costOf(price: Price, tokensIn: number, tokensOut: number): number {
  return (tokensIn * price.input + tokensOut * price.output) / 1_000_000;
}
