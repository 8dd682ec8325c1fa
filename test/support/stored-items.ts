// Synthetic StoredItems for selection tests (built here, not recorded: selection is pure and needs no IO).
import { canonicalUrl, itemKey } from '../../src/core/ids.js';
import type { SourceItem, StoredItem } from '../../src/core/types.js';
import type { SelectionPolicy } from '../../src/select/types.js';

export function storedItem(overrides: Partial<StoredItem> & { key: string }): StoredItem {
  const arxivId = overrides.key.startsWith('arxiv:') ? overrides.key.slice(6) : null;
  const url =
    overrides.url ?? (arxivId ? `https://arxiv.org/abs/${arxivId}` : `https://example.com/${overrides.key}`);
  const primarySource = overrides.primarySource ?? 'api-hf';
  return {
    canonicalUrl: url,
    url,
    title: `Item ${overrides.key}`,
    text: 'We evaluate language model agents with tool use in production deployments and report failure modes. '.repeat(
      3,
    ),
    authors: [],
    arxivId,
    image: null,
    publishedAt: '2026-05-01T00:00:00Z',
    upvotes: 5,
    citations: null,
    primarySource,
    sources: [{ sourceId: primarySource, url, upvotes: overrides.upvotes ?? 5 }],
    manual: null,
    firstSeenAt: '2026-05-01T00:00:00Z',
    ...overrides,
  };
}

export function policy(overrides: Partial<SelectionPolicy> = {}): SelectionPolicy {
  return {
    itemsPerEdition: 12,
    sourceWeights: {},
    audience: 'engineers building production AI systems',
    topics: [],
    excludeKeys: new Set(),
    pinnedKeys: new Set(),
    skippedKeys: new Set(),
    ...overrides,
  };
}

/** A source item as the store would hold it on its own (one source, keyed by arXiv id or canonical URL). */
export function storedFrom(item: SourceItem, overrides: Partial<StoredItem> = {}): StoredItem {
  const arxivId = overrides.arxivId === undefined ? item.arxivId : overrides.arxivId;
  return {
    key: itemKey(arxivId, item.url),
    canonicalUrl: canonicalUrl(item.url),
    url: item.url,
    title: item.title,
    text: item.text,
    authors: item.authors,
    arxivId,
    image: item.image,
    publishedAt: item.publishedAt,
    upvotes: item.upvotes,
    citations: null,
    primarySource: item.sourceId,
    sources: [{ sourceId: item.sourceId, url: item.url, upvotes: item.upvotes }],
    manual: null,
    firstSeenAt: item.publishedAt,
    ...overrides,
  };
}
