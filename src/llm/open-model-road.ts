// The road a run asks for, loading the AI SDK (model-road.ts and the providers, ~0.5 s of a command's start) only
// when the run may call a model: an offline build, or one with no model configured, gets the quiet road at once.
import { llmSchema } from '../config/llm-schema.js';
import { type ModelRoad, type ModelRoadOptions, noModelNotice, quietRoad, startRoad } from './road-base.js';

export async function openModelRoad(options: ModelRoadOptions): Promise<ModelRoad> {
  const llm = llmSchema.parse(options.llm);
  const notice = noModelNotice(llm, options.run ?? {});
  if (notice) return quietRoad(startRoad(options, llm).base, notice);
  const { createModelRoad } = await import('./model-road.js');
  return createModelRoad(options);
}
