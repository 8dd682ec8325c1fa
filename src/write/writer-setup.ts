// The writer a road calls for: the LLM writer when the road has a writing model, else the extractive one.
// openWriter() loads the LLM writer (and with it the AI SDK) only when it is the one, so a build without a model
// never loads it.
import type { ModelRoad } from '../llm/road-base.js';
import type { UsageReport } from '../llm/usage.js';
import { createExtractiveWriter } from './extractive.js';
import type { Writer } from './types.js';

export interface WriterSetup {
  writer: Writer;
  /** Printed once by the CLI (e.g. "no LLM configured: …, to configure one …"); null when there is nothing to say. */
  notice: string | null;
  usage(): UsageReport;
  /** The road the writer calls through; triage takes its model from the same road. */
  road: ModelRoad;
}

export function writerSetup(road: ModelRoad, writer: Writer): WriterSetup {
  return { writer, notice: road.notice, usage: road.usage, road };
}

export async function openWriter(road: ModelRoad): Promise<WriterSetup> {
  if (!road.model('write')) return writerSetup(road, createExtractiveWriter());
  const { createLlmWriter } = await import('./llm-writer.js');
  return writerSetup(road, createLlmWriter({ road }));
}
