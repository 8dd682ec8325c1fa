// The writer for a LLM client (editions use it through writer-setup.ts's openWriter; eval and the desk through createWriter):
// the LLM writer when a model is configured, else the extractive one. A configured model without its key throws
// ConfigError when the LLM client is made, before any work (see the LLM client).
import { createLlmClient, type LlmClient, type LlmClientOptions } from '../llm/client.js';
import { createExtractiveWriter } from './extractive.js';
import { createLlmWriter } from './llm-writer.js';
import { type WriterSetup, writerSetup } from './writer-setup.js';

export {
  createLlmClient,
  type LlmClient,
} from '../llm/client.js';
export { createExtractiveWriter } from './extractive.js';
export { formatUsageTable } from './format-usage.js';
export type { ItemForWriting, Writer } from './types.js';
export type { WriterSetup } from './writer-setup.js';

/** The run's LLM client, or what builds one (createLlmClient's own options: the CLI flags and config.llm). */
export type CreateWriterOptions = { llmClient: LlmClient } | LlmClientOptions;

export function createWriter(options: CreateWriterOptions): WriterSetup {
  const llmClient = 'llmClient' in options ? options.llmClient : createLlmClient(options);
  return writerSetup(
    llmClient,
    llmClient.model('write') ? createLlmWriter({ llmClient }) : createExtractiveWriter(),
  );
}
