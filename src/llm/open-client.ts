// The LLM client a run asks for, loading the AI SDK (model-LLM client.ts and the providers, ~0.5 s of a command's start) only
// when the run may call a model: an offline build, or one with no model configured, gets the quiet LLM client at once.
import { llmSchema } from '../config/llm-schema.js';
import {
  type LlmClient,
  type LlmClientOptions,
  noModelNotice,
  quietLlmClient,
  startLlmClient,
} from './client-types.js';

export async function openLlmClient(options: LlmClientOptions): Promise<LlmClient> {
  const llm = llmSchema.parse(options.llm);
  const notice = noModelNotice(llm, options.run ?? {});
  if (notice) return quietLlmClient(startLlmClient(options, llm).base, notice);
  const { createLlmClient } = await import('./client.js');
  return createLlmClient(options);
}
