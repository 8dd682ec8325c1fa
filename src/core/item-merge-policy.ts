// How two descriptions of one real-world item combine — the one merge policy, used when the store merges rows
// (ingest) and when selection merges candidates (dedup). Pure; the caller decides which rows meet and which is
// the base (the store: the earliest seen; dedup: the paper's own page).
import type { ItemSourceRef, StoredItem } from './types.js';

/**
 * `base` keeps its identity (key, URLs, title when it has one, primary source); `other` fills what base lacks.
 * Counts take the maximum, the published date and first sighting the earliest, the text the longer.
 */
export function mergeItems(base: StoredItem, other: StoredItem): StoredItem {
  return {
    ...base,
    title: base.title || other.title,
    text: other.text.length > base.text.length ? other.text : base.text,
    authors: base.authors.length ? base.authors : other.authors,
    arxivId: base.arxivId ?? other.arxivId,
    image: base.image ?? other.image,
    publishedAt: earlierIso(base.publishedAt, other.publishedAt),
    upvotes: maxCount(base.upvotes, other.upvotes),
    citations: maxCount(base.citations, other.citations),
    sources: mergeSources(sourceRefs(base), sourceRefs(other)),
    manual: base.manual ?? other.manual,
    firstSeenAt: earlierIso(base.firstSeenAt, other.firstSeenAt),
  };
}

/**
 * Union by (source id, URL), first appearance first; a repeated ref keeps its highest upvotes, and its code
 * repository (the first it was seen with, else the one the repeat brings).
 */
export function mergeSources(first: ItemSourceRef[], second: ItemSourceRef[]): ItemSourceRef[] {
  const merged = new Map<string, ItemSourceRef>();
  for (const ref of [...first, ...second]) {
    const id = `${ref.sourceId}\u0000${ref.url}`;
    const seen = merged.get(id);
    if (!seen) merged.set(id, ref);
    else {
      const githubRepo = seen.githubRepo ?? ref.githubRepo;
      merged.set(id, {
        ...seen,
        upvotes: maxCount(seen.upvotes, ref.upvotes),
        ...(githubRepo ? { githubRepo } : {}),
      });
    }
  }
  return [...merged.values()];
}

/** An item with no recorded sources still came from its primary source. */
function sourceRefs(item: StoredItem): ItemSourceRef[] {
  return item.sources.length
    ? item.sources
    : [{ sourceId: item.primarySource, url: item.url, upvotes: item.upvotes }];
}

/** ISO timestamps of one format compare as strings. */
function earlierIso(a: string, b: string): string {
  return b < a ? b : a;
}

function maxCount(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
