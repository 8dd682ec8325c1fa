// The LLM writer. Takes its models from the LLM client (one stack for every call), so tests hand it a LLM client over
// MockLanguageModelV3. Items are written concurrently; the LLM client's limiter bounds calls in flight and per-provider rate.
import { CredentialError, errorMessage } from '../core/errors.js';
import type { WrittenItem } from '../core/types.js';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { writeEditionWithModel } from './llm-edition.js';
import { writeFallback, writeItemWithModel } from './llm-item.js';
import type { ItemForWriting, Writer, WriterContext } from './types.js';

export interface LlmWriterOptions {
  llmClient: LlmClient;
  /** Source text sent per item is cut to about this many tokens (default: the LLM client's `llm.maxInputTokens`). */
  maxInputTokens?: number;
}

export function createLlmWriter(options: LlmWriterOptions): Writer {
  const { llmClient } = options;
  const write = llmClient.model('write');
  if (!write)
    throw new Error('createLlmWriter: the llmClient has no writing model (use the extractive writer)');
  const edition = llmClient.model('edition') ?? write;
  const check = llmClient.model('check');
  const maxInputTokens = options.maxInputTokens ?? llmClient.config.maxInputTokens;

  return {
    name: write.modelId,
    async writeItems(items, context) {
      llmClient.meter.touch();
      let done = 0;
      return Promise.all(
        items.map(async (item) => {
          const result = await writeSafely({ item, context, write, check });
          done += 1;
          context.onItemWritten?.(done, items.length, item.key);
          return result;
        }),
      );
    },
    async writeEdition(items, context) {
      const header = await writeEditionWithModel(items, {
        llmClient,
        write: edition,
        name: context.name,
        audience: context.audience,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      llmClient.meter.touch();
      for (const note of header.notes) context.log.warn(note);
      return { title: header.title, intro: header.intro, writer: header.writer };
    },
  };

  async function writeSafely({
    item,
    context,
    write,
    check,
  }: {
    item: ItemForWriting;
    context: WriterContext;
    write: LlmClientModel;
    check: LlmClientModel | null;
  }): Promise<WrittenItem> {
    try {
      return await writeItemWithModel(item, {
        llmClient,
        write,
        check,
        name: context.name,
        audience: context.audience,
        maxInputTokens,
        ...(context.signal ? { signal: context.signal } : {}),
      });
    } catch (error) {
      // A rejected key or an abort stops the run; anything else must not cost the edition.
      if (error instanceof CredentialError || llmClient.signal.aborted || context.signal?.aborted)
        throw error;
      context.log.warn(
        `Writing "${item.title}" failed: ${errorMessage(error)}; using the extractive writer.`,
      );
      return writeFallback({
        item,
        meter: llmClient.meter,
        notes: [`unexpected error: ${errorMessage(error)}; written by the extractive writer.`],
        label: 'unexpected error',
      });
    }
  }
}
