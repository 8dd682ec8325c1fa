// How two descriptions of one real-world item combine. Pure: the upsert decides which rows meet.
import type { ItemSourceRef, SourceItem, StoredItem } from '../core/types.js';
import { storableText } from './_values.js';

/** A source item as the row it would become on its own (the key is settled when the group is known). */
export function freshItem(
  item: SourceItem,
  identity: { canonicalUrl: string; arxivId: string | null; publishedAt: string },
  now: string,
): StoredItem {
  const url = storableText(item.url.trim());
  const sourceId = storableText(item.sourceId);
  const upvotes = validCount(item.upvotes);
  return {
    key: '',
    canonicalUrl: storableText(identity.canonicalUrl),
    url,
    title: storableText(item.title ?? '').trim(),
    text: storableText(item.text ?? ''),
    authors: (item.authors ?? []).map((author) => storableText(author).trim()).filter(Boolean),
    arxivId: identity.arxivId,
    image: item.image ? storableText(item.image) : null,
    publishedAt: identity.publishedAt,
    upvotes,
    citations: null,
    primarySource: sourceId,
    sources: [{ sourceId, url, upvotes }],
    manual: null,
    firstSeenAt: now,
  };
}

/**
 * `base` keeps its identity (key, URLs, arXiv id); `other` fills what base lacks. The earlier-seen of the
 * two decides the primary source; upvotes take the maximum, the published date the earliest, the text the longer.
 */
export function mergeItems(base: StoredItem, other: StoredItem): StoredItem {
  const otherFirst = other.firstSeenAt < base.firstSeenAt;
  return {
    ...base,
    title: base.title || other.title,
    text: other.text.length > base.text.length ? other.text : base.text,
    authors: base.authors.length ? base.authors : other.authors,
    arxivId: base.arxivId ?? other.arxivId,
    image: base.image ?? other.image,
    publishedAt: earlierIso(base.publishedAt, other.publishedAt),
    upvotes: maxCount(base.upvotes, other.upvotes),
    citations: base.citations ?? other.citations,
    primarySource: otherFirst ? other.primarySource : base.primarySource,
    sources: mergeSources(base.sources, other.sources),
    manual: base.manual ?? other.manual,
    firstSeenAt: otherFirst ? other.firstSeenAt : base.firstSeenAt,
  };
}

/** Union by (source id, URL), first appearance first; a repeated ref keeps its highest upvotes. */
export function mergeSources(first: ItemSourceRef[], second: ItemSourceRef[]): ItemSourceRef[] {
  const merged = new Map<string, ItemSourceRef>();
  for (const ref of [...first, ...second]) {
    const id = `${ref.sourceId}\u0000${ref.url}`;
    const seen = merged.get(id);
    merged.set(id, seen ? { ...seen, upvotes: maxCount(seen.upvotes, ref.upvotes) } : ref);
  }
  return [...merged.values()];
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

/** Counts go into an integer column: anything else is unknown. */
function validCount(value: number | null | undefined): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.max(0, Math.min(2_147_483_647, Math.round(value)));
}

/** Fields the upsert writes; a merge that changes none of them needs no UPDATE. */
export function sameStoredFields(a: StoredItem, b: StoredItem): boolean {
  return (
    a.key === b.key &&
    a.arxivId === b.arxivId &&
    a.title === b.title &&
    a.text === b.text &&
    a.image === b.image &&
    a.publishedAt === b.publishedAt &&
    a.upvotes === b.upvotes &&
    a.citations === b.citations &&
    a.primarySource === b.primarySource &&
    a.firstSeenAt === b.firstSeenAt &&
    a.manual?.week === b.manual?.week &&
    a.manual?.note === b.manual?.note &&
    JSON.stringify(a.authors) === JSON.stringify(b.authors) &&
    JSON.stringify(a.sources) === JSON.stringify(b.sources)
  );
}
