// The writer for a road (editions use it through writer-setup.ts's openWriter; eval and the desk through createWriter):
// the LLM writer when a model is configured, else the extractive one. A configured model without its key throws
// ConfigError when the road is made, before any work (see the road).
import { createModelRoad, type ModelRoad, type ModelRoadOptions } from '../llm/model-road.js';
import { createExtractiveWriter } from './extractive.js';
import { createLlmWriter } from './llm-writer.js';
import { type WriterSetup, writerSetup } from './writer-setup.js';

export {
  createModelRoad,
  type ModelRoad,
} from '../llm/model-road.js';
export { createExtractiveWriter } from './extractive.js';
export { formatUsageTable } from './format-usage.js';
export type { ItemForWriting, Writer } from './types.js';
export type { WriterSetup } from './writer-setup.js';

/** The run's model road, or what builds one (createModelRoad's own options: the CLI flags and config.llm). */
export type CreateWriterOptions = { road: ModelRoad } | ModelRoadOptions;

export function createWriter(options: CreateWriterOptions): WriterSetup {
  const road = 'road' in options ? options.road : createModelRoad(options);
  return writerSetup(road, road.model('write') ? createLlmWriter({ road }) : createExtractiveWriter());
}
