// LLM settings (issue 3 grows this). Model ids are "provider:model".
import { z } from 'zod';

export const modelIdSchema = z
  .string()
  .regex(
    /^(openai|anthropic|ollama|openai-compatible):.+$/,
    'must be "provider:model" with provider openai, anthropic, ollama or openai-compatible',
  );

export const llmSchema = z
  .object({
    /** Model that writes items, title and intro. Unset → extractive writer. */
    write: modelIdSchema.optional(),
    /** Model that checks faithfulness (defaults to `write`). */
    check: modelIdSchema.optional(),
  })
  .default({});

export type LlmConfig = z.infer<typeof llmSchema>;
