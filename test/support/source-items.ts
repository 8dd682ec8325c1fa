// Source items built for store tests (synthetic, not recorded responses).
import type { SourceItem } from '../../src/core/types.js';

export function sourceItem(overrides: Partial<SourceItem> = {}): SourceItem {
  return {
    sourceId: 'rss-test',
    url: 'https://blog.example.com/posts/evals-in-production',
    title: 'Evals in production',
    text: 'How we run evaluations on every deploy.',
    authors: ['Ada Lovelace'],
    arxivId: null,
    image: null,
    publishedAt: '2026-05-01T09:30:00.000Z',
    upvotes: null,
    ...overrides,
  };
}

/** An HF daily-papers style item for arXiv id `id`. */
export function paperItem(id: string, overrides: Partial<SourceItem> = {}): SourceItem {
  return sourceItem({
    sourceId: 'api-hf',
    url: `https://huggingface.co/papers/${id}`,
    title: `Paper ${id}`,
    text: `Abstract of paper ${id}.`,
    authors: ['Grace Hopper', 'Alan Turing'],
    arxivId: id,
    upvotes: 12,
    ...overrides,
  });
}
