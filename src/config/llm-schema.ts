// LLM settings. Model ids are "provider:model"; secrets stay in the environment and are read when a call is made.
import { z } from 'zod';
import { httpUrl } from './schema-rules.js';

export const PROVIDERS = ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const;
/** Calls in flight per provider when `llm.concurrency` is unset and the endpoint is not a local engine. */
export const DEFAULT_CONCURRENCY = 4;
export type ProviderName = (typeof PROVIDERS)[number];

export const modelIdSchema = z
  .string()
  .regex(
    /^(openai|anthropic|ollama|openai-compatible):.+$/,
    'must be "provider:model" with provider openai, anthropic, ollama or openai-compatible',
  );

const priceSchema = z
  .object({
    /** USD per 1M input tokens. */
    input: z.number().min(0),
    /** USD per 1M output tokens. */
    output: z.number().min(0),
  })
  .strict();

export const llmSchema = z
  .object({
    /** Model that writes items, title and intro. Unset → extractive writer. */
    write: modelIdSchema.optional(),
    /** Model that checks faithfulness (defaults to `write`); a cheaper model is fine. */
    check: modelIdSchema.optional(),
    /**
     * Embeddings model for learned taste ("openai:text-embedding-3-small", "ollama:nomic-embed-text",
     * "openai-compatible:…"). Unset → taste learns from tf-idf. Anthropic has no embeddings model.
     */
    embed: modelIdSchema.optional(),
    /**
     * Models to try, in order, when a call's provider is down (5xx or 429 after the retries, timeouts, an open
     * breaker, a refused connection), e.g. ["openai:gpt-4.1-mini", "ollama:qwen3:8b"]; the extractive writer comes last.
     */
    fallbacks: z.array(modelIdSchema).max(5).default([]),
    /** Run the faithfulness check (`--no-check` turns it off for one build). */
    checkEnabled: z.boolean().default(true),
    /** Server for `openai-compatible:` ids (vLLM, llama.cpp server, LM Studio, OpenRouter). */
    openaiCompatible: z
      .object({
        baseURL: httpUrl,
        /** Name of the environment variable holding the API key (none sent when unset). */
        apiKeyEnv: z
          .string()
          .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name like OPENROUTER_API_KEY')
          .optional(),
      })
      .strict()
      .optional(),
    /** Which OpenAI API `openai:` ids use: "responses" (default) or "chat" for gateways that only speak chat completions. */
    openaiApi: z.enum(['responses', 'chat']).default('responses'),
    /**
     * Calls in flight per provider at most (default 4). Unset, a local engine (ollama:, an openai-compatible: server
     * on a loopback or private address) gets the slots it reports (llama.cpp's /props) or 1. A provider whose calls
     * time out while others are in flight gets fewer, and those calls are asked again.
     */
    concurrency: z.number().int().min(1).max(32).optional(),
    /** Requests per minute, per provider (unset: no limit beyond concurrency). */
    requestsPerMinute: z.partialRecord(z.enum(PROVIDERS), z.number().int().positive()).default({}),
    /** Timeout of each attempt of a call, from the moment it gets its slot (ms). */
    timeoutMs: z.number().int().positive().default(90_000),
    /** Retries on 429/5xx (the SDK honours Retry-After). */
    maxRetries: z.number().int().min(0).max(10).default(2),
    /**
     * Papers are written from their full text (arXiv's HTML rendering: abstract plus the sections that matter to a
     * practitioner) when one is available; false writes every item from its abstract, as before.
     */
    fullText: z.boolean().default(true),
    /** Source text sent per item is cut to about this many tokens. */
    maxInputTokens: z.number().int().min(200).max(100_000).default(3_000),
    /** Output cap per call; raise it for reasoning models, whose hidden reasoning counts against it. */
    maxOutputTokens: z.number().int().min(256).max(64_000).default(2_000),
    temperature: z.number().min(0).max(2).default(0.2),
    /** Price overrides by model id ("openai:gpt-4.1-mini") or bare model name, USD per 1M tokens. */
    prices: z.record(z.string(), priceSchema).default({}),
    /** Stop spending at this many USD (triage included): the rest is written extractively and flagged. */
    maxCostUsd: z.number().positive().optional(),
    /**
     * What a configured model without its key or server (or with a rejected key) does: "error" stops the build
     * before any work naming the variable to set; "extractive" writes extractively and says so.
     */
    fallback: z.enum(['error', 'extractive']).default('error'),
    /** Decoded bytes one answer may have; a bigger (or endless, or compressed-bomb) answer fails that call. */
    maxResponseBytes: z.number().int().min(10_000).max(100_000_000).default(4_000_000),
  })
  .strict()
  .superRefine((llm, context) => {
    if (llm.embed?.startsWith('anthropic:')) {
      context.addIssue({
        code: 'custom',
        path: ['embed'],
        message:
          'Anthropic has no embeddings model: use openai:, ollama: or openai-compatible: (e.g. "openai:text-embedding-3-small"), or leave it unset for tf-idf taste',
      });
    }
    const ids: [(string | number)[], string | undefined][] = [
      ...(['write', 'check', 'embed'] as const).map((field): [string[], string | undefined] => [
        [field],
        llm[field],
      ]),
      ...llm.fallbacks.map((id, index): [(string | number)[], string] => [['fallbacks', index], id]),
    ];
    for (const [path, id] of ids) {
      if (id?.startsWith('openai-compatible:') && !llm.openaiCompatible) {
        context.addIssue({
          code: 'custom',
          path,
          message: 'an "openai-compatible:" model needs llm.openaiCompatible.baseURL',
        });
      }
    }
  })
  .prefault({});

export type LlmConfig = z.infer<typeof llmSchema>;
export type LlmConfigInput = z.input<typeof llmSchema>;
export type PriceTable = Record<string, z.infer<typeof priceSchema>>;
