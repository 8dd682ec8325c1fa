// A stored item as every writer takes it (build, eval, the desk's regenerate): cleaned source text and the editor's note.
import type { StoredItem } from '../core/types.js';
import { cleanSourceText } from './clean-text.js';
import type { ItemForWriting } from './types.js';

export function itemForWriting(item: StoredItem): ItemForWriting {
  return {
    key: item.key,
    title: item.title,
    url: item.url,
    authors: item.authors,
    text: cleanSourceText(item.text, item.title),
    source: item.primarySource,
    arxivId: item.arxivId,
    publishedAt: item.publishedAt,
    note: item.manual?.note ?? null,
  };
}
