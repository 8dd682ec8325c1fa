// "provider:model" ids → AI SDK language models through the SDK's provider registry; the LLM client wraps them.
// Every provider is given the JSON schema of structured output: OpenAI and Anthropic natively, and the
// OpenAI-compatible ones (Ollama, vLLM, llama.cpp, LM Studio) with `supportsStructuredOutputs`, which sends
// `response_format: { type: "json_schema" }` instead of schema-less JSON mode.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createProviderRegistry } from 'ai';
import type { LlmConfig, ProviderName } from '../config/llm-schema.js';
import { ConfigError } from '../core/errors.js';
import { isAllowedAddress, literalAddress } from '../net/ssrf-guard.js';

export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://localhost:11434/v1',
} as const;

export interface ResolveModelOptions {
  llm: Pick<LlmConfig, 'openaiCompatible'> & Partial<Pick<LlmConfig, 'openaiApi'>>;
  /** Where API keys and base URLs are read from: the composition root passes its env (never process.env here). */
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

export function providerOf(modelId: string): ProviderName {
  const provider = modelId.slice(0, modelId.indexOf(':'));
  if (
    provider === 'openai' ||
    provider === 'anthropic' ||
    provider === 'ollama' ||
    provider === 'openai-compatible'
  ) {
    return provider;
  }
  throw new ConfigError(
    `Unknown model provider in "${modelId}": use openai:, anthropic:, ollama: or openai-compatible: (e.g. openai:gpt-4.1-mini).`,
  );
}

/** What a model id still needs from the environment or config: the setting to give, and why. */
export interface MissingSetting {
  /** The environment variable (or config field) to set, e.g. OPENAI_API_KEY. */
  setting: string;
  /** `"<model>" needs <setting> <where>`. */
  message: string;
  /** `needs <setting> <where>`, for a sentence that already named the model. */
  need: string;
}

export function missingSetting(modelId: string, options: ResolveModelOptions): MissingSetting | null {
  const env = options.env;
  const needs = (setting: string, where = 'in the environment'): MissingSetting => ({
    setting,
    message: `"${modelId}" needs ${setting} ${where}`,
    need: `needs ${setting} ${where}`,
  });
  switch (providerOf(modelId)) {
    case 'openai':
      return env.OPENAI_API_KEY ? null : needs('OPENAI_API_KEY');
    case 'anthropic':
      return env.ANTHROPIC_API_KEY ? null : needs('ANTHROPIC_API_KEY');
    case 'ollama':
      return null;
    case 'openai-compatible': {
      const server = options.llm.openaiCompatible;
      if (!server) return needs('llm.openaiCompatible.baseURL', 'in the config');
      if (server.apiKeyEnv && !env[server.apiKeyEnv]) {
        return needs(server.apiKeyEnv, 'in the environment (llm.openaiCompatible.apiKeyEnv)');
      }
      return null;
    }
  }
}

/** The setting that authenticates a model id: what to check when its provider rejects the key. */
export function keySetting(modelId: string, llm: Pick<LlmConfig, 'openaiCompatible'>): string {
  switch (providerOf(modelId)) {
    case 'openai':
      return 'OPENAI_API_KEY';
    case 'anthropic':
      return 'ANTHROPIC_API_KEY';
    case 'ollama':
      return 'OLLAMA_BASE_URL';
    case 'openai-compatible':
      return llm.openaiCompatible?.apiKeyEnv ?? 'llm.openaiCompatible';
  }
}

/** The setting that says where a model's server listens: what to check when nothing answers there. */
export function baseUrlSetting(modelId: string): string {
  switch (providerOf(modelId)) {
    case 'openai':
      return 'OPENAI_BASE_URL';
    case 'anthropic':
      return 'ANTHROPIC_BASE_URL';
    case 'ollama':
      return 'OLLAMA_BASE_URL';
    case 'openai-compatible':
      return 'llm.openaiCompatible.baseURL';
  }
}

/** The base URL a model's calls go to. */
export function endpointOf(modelId: string, options: ResolveModelOptions): string {
  const env = options.env;
  switch (providerOf(modelId)) {
    case 'openai':
      return env.OPENAI_BASE_URL || DEFAULT_BASE_URLS.openai;
    case 'anthropic':
      return env.ANTHROPIC_BASE_URL || DEFAULT_BASE_URLS.anthropic;
    case 'ollama':
      return env.OLLAMA_BASE_URL || DEFAULT_BASE_URLS.ollama;
    case 'openai-compatible':
      return options.llm.openaiCompatible?.baseURL ?? 'http://localhost:8000/v1';
  }
}

/**
 * A model running on the user's own machine or network: every `ollama:` model, and an `openai-compatible:` server
 * at a loopback or private address (or `localhost`). Such a model costs nothing and starts at the slots it has.
 * OpenAI and Anthropic ids are never local, whatever their base URL (a gateway on localhost still bills).
 */
export function isLocalModel(modelId: string, options: ResolveModelOptions): boolean {
  const provider = providerOf(modelId);
  if (provider === 'ollama') return true;
  if (provider !== 'openai-compatible') return false;
  let url: URL;
  try {
    url = new URL(endpointOf(modelId, options));
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const address = literalAddress(url);
  return address !== null && !isAllowedAddress(address);
}

/** The registry for one environment. Providers are created lazily by the SDK's call, not at import time. */
export function createModelRegistry(options: ResolveModelOptions) {
  const env = options.env;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const server = options.llm.openaiCompatible;
  const serverKey = server?.apiKeyEnv ? env[server.apiKeyEnv] : undefined;
  const openai = createOpenAI({
    baseURL: env.OPENAI_BASE_URL || DEFAULT_BASE_URLS.openai,
    apiKey: env.OPENAI_API_KEY ?? '',
    ...fetchOption,
  });
  return createProviderRegistry({
    // Gateways that only speak chat completions: set llm.openaiApi to "chat".
    openai:
      options.llm.openaiApi === 'chat'
        ? { ...openai, languageModel: (id: string) => openai.chat(id) }
        : openai,
    anthropic: createAnthropic({
      baseURL: env.ANTHROPIC_BASE_URL || DEFAULT_BASE_URLS.anthropic,
      apiKey: env.ANTHROPIC_API_KEY ?? '',
      ...fetchOption,
    }),
    ollama: createOpenAICompatible({
      name: 'ollama',
      baseURL: env.OLLAMA_BASE_URL || DEFAULT_BASE_URLS.ollama,
      supportsStructuredOutputs: true,
      includeUsage: true,
      ...fetchOption,
    }),
    'openai-compatible': createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: server?.baseURL ?? 'http://localhost:8000/v1',
      ...(serverKey ? { apiKey: serverKey } : {}),
      supportsStructuredOutputs: true,
      includeUsage: true,
      ...fetchOption,
    }),
  });
}

/**
 * `resolveModel("openai:gpt-4.1-mini", { llm, env })` → the provider's bare model, outside the LLM client (no cache,
 * budget or limits): use `createLlmClient(...).model(purpose)` for calls a build makes.
 */
export function resolveModel(modelId: string, options: ResolveModelOptions): LanguageModelV3 {
  providerOf(modelId);
  return createModelRegistry(options).languageModel(modelId as `openai:${string}`);
}
