// The LLM writer. Takes its models as parameters (resolved elsewhere), so tests hand it MockLanguageModelV3.
// Items are written concurrently; the call limiter bounds calls in flight and per-provider rate.

import type { PriceTable } from '../config/llm-schema.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { WrittenItem } from '../core/types.js';
import type { Store } from '../store/types.js';
import type { CallLimiter } from './call-limiter.js';
import type { CallEnvironment } from './llm-call.js';
import { writeEditionWithModel } from './llm-edition.js';
import { type ModelRef, writeFallback, writeItemWithModel } from './llm-item.js';
import type { ItemForWriting, Writer, WriterContext } from './types.js';
import type { UsageMeter } from './usage.js';

export interface LlmWriterOptions {
  write: ModelRef;
  /** Null turns the faithfulness check off. */
  check: ModelRef | null;
  store: Store;
  log: Logger;
  meter: UsageMeter;
  limiter: CallLimiter;
  refresh?: boolean;
  prices?: PriceTable;
  maxCostUsd?: number;
  timeoutMs?: number;
  maxRetries?: number;
  temperature?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
}

export function createLlmWriter(options: LlmWriterOptions): Writer {
  const environment = (context: WriterContext): CallEnvironment => ({
    store: options.store,
    meter: options.meter,
    limiter: options.limiter,
    log: context.log,
    refresh: options.refresh ?? false,
    prices: options.prices ?? {},
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    timeoutMs: options.timeoutMs ?? 90_000,
    maxRetries: options.maxRetries ?? 2,
    temperature: options.temperature ?? 0.2,
    maxOutputTokens: options.maxOutputTokens ?? 2_000,
    ...(context.signal ? { signal: context.signal } : {}),
  });

  return {
    name: options.write.modelId,
    async writeItems(items, context) {
      const env = environment(context);
      options.meter.touch();
      let done = 0;
      return Promise.all(
        items.map(async (item) => {
          const result = await writeSafely(item, context, env);
          done += 1;
          context.onItemWritten?.(done, items.length, item.key);
          return result;
        }),
      );
    },
    async writeEdition(items, context) {
      const header = await writeEditionWithModel(items, {
        write: options.write,
        env: environment(context),
        name: context.name,
        audience: context.audience,
      });
      options.meter.touch();
      for (const note of header.notes) context.log.warn(note);
      return { title: header.title, intro: header.intro, writer: header.writer };
    },
  };

  async function writeSafely(
    item: ItemForWriting,
    context: WriterContext,
    env: CallEnvironment,
  ): Promise<WrittenItem> {
    try {
      return await writeItemWithModel(item, {
        write: options.write,
        check: options.check,
        env,
        name: context.name,
        audience: context.audience,
        maxInputTokens: options.maxInputTokens ?? 3_000,
      });
    } catch (error) {
      // A bug or a store failure must not cost the edition: this item alone goes extractive, and says why.
      context.log.warn(
        `Writing "${item.title}" failed: ${errorMessage(error)}; using the extractive writer.`,
      );
      return writeFallback(item, options.meter, [
        `unexpected error: ${errorMessage(error)}; written by the extractive writer.`,
      ]);
    }
  }
}
