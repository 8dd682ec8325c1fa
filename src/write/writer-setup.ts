// The writer a LLM client calls for: the LLM writer when the LLM client has a writing model, else the extractive one.
// openWriter() loads the LLM writer (and with it the AI SDK) only when it is the one, so a build without a model
// never loads it.
import type { LlmClient } from '../llm/client-types.js';
import type { UsageReport } from '../llm/usage.js';
import { createExtractiveWriter } from './extractive.js';
import type { Writer } from './types.js';

export interface WriterSetup {
  writer: Writer;
  /** Printed once by the CLI (e.g. "no LLM configured: …, to configure one …"); null when there is nothing to say. */
  notice: string | null;
  usage(): UsageReport;
  /** The LLM client the writer calls through; triage takes its model from the same LLM client. */
  llmClient: LlmClient;
}

export function writerSetup(llmClient: LlmClient, writer: Writer): WriterSetup {
  return { writer, notice: llmClient.notice, usage: llmClient.usage, llmClient };
}

export async function openWriter(llmClient: LlmClient): Promise<WriterSetup> {
  if (!llmClient.model('write')) return writerSetup(llmClient, createExtractiveWriter());
  const { createLlmWriter } = await import('./llm-writer.js');
  return writerSetup(llmClient, createLlmWriter({ llmClient }));
}
