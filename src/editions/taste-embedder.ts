// The embeddings model learned taste reads items with (`llm.embed`), for build, list and taste alike; none when it
// is unset or taste is off. Creating it loads no SDK: that happens only when a text is not embedded yet.

import type { Embedder, EmbedderOptions } from '../llm/embeddings.js';
import type { EmbedderDeps } from './ports.js';

export async function tasteEmbedder(
  deps: EmbedderDeps,
  options: Pick<EmbedderOptions, 'cacheOnly' | 'budget'> = {},
): Promise<Embedder | undefined> {
  const modelId = deps.config.llm.embed;
  if (!modelId || !deps.config.selection.learnTaste) return undefined;
  const { createEmbedder } = await import('../llm/embeddings.js');
  return createEmbedder({
    modelId,
    llm: deps.config.llm,
    store: deps.store,
    env: deps.env,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...options,
  });
}
