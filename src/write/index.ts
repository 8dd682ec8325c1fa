// The one factory the build (editions/build.ts) calls: the LLM writer on the model road when a model is configured, else the
// extractive one. A configured model without its key throws ConfigError here, before any work (see the road).
import { createModelRoad, type ModelRoad, type ModelRoadOptions } from '../llm/model-road.js';
import type { UsageReport } from '../llm/usage.js';
import { createExtractiveWriter } from './extractive.js';
import { createLlmWriter } from './llm-writer.js';
import type { Writer } from './types.js';

export {
  createModelRoad,
  type ModelRoad,
} from '../llm/model-road.js';
export type { UsageReport } from '../llm/usage.js';
export { createExtractiveWriter } from './extractive.js';
export { formatFlaggedItems, formatProgress, formatUsageTable, outcomeNotes } from './format-usage.js';
export type { ItemForWriting, Writer } from './types.js';

/** The run's model road, or what builds one (createModelRoad's own options: the CLI flags and config.llm). */
export type CreateWriterOptions = { road: ModelRoad } | ModelRoadOptions;

export interface WriterSetup {
  writer: Writer;
  /** Printed once by the CLI (e.g. "no LLM configured: …, to configure one …"); null when there is nothing to say. */
  notice: string | null;
  usage(): UsageReport;
  /** The road the writer calls through; triage takes its model from the same road. */
  road: ModelRoad;
}

export function createWriter(options: CreateWriterOptions): WriterSetup {
  const road = 'road' in options ? options.road : createModelRoad(options);
  const writer = road.model('write') ? createLlmWriter({ road }) : createExtractiveWriter();
  return { writer, notice: road.notice, usage: road.usage, road };
}
