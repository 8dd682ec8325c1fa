// The offline writer: deterministic, uses only each item's own sentences. Also the LLM writer's fallback.

import { writeEditionExtractively } from './extractive-edition.js';
import { writeItemExtractively } from './extractive-item.js';
import type { Writer } from './types.js';

export function createExtractiveWriter(): Writer {
  return {
    name: 'extractive',
    async writeItems(items, context) {
      return items.map((item, index) => {
        const written = writeItemExtractively(item);
        context.onItemWritten?.(index + 1, items.length, item.key);
        return written;
      });
    },
    async writeEdition(items) {
      return writeEditionExtractively(items);
    },
  };
}
