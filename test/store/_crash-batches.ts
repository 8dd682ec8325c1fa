// The batches the crash-safety child stores (synthetic items): batch b holds items b*size … b*size+size-1, and
// repeats two items of the batch before it, so every batch also merges.
import type { SourceItem } from '../../src/core/types.js';
import { syntheticItems } from './synthetic-items.js';

export function crashBatch(batch: number, size: number): SourceItem[] {
  const items = syntheticItems(size, '2026-05-04', { offset: batch * size, sourceId: 'rss-crash' });
  const repeated =
    batch > 0 ? syntheticItems(2, '2026-05-04', { offset: batch * size - 2, sourceId: 'rss-crash' }) : [];
  return [...items, ...repeated];
}
