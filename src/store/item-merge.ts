// A source item as a row, and whether a merge changed a row. The merge itself is core/item-merge-policy.ts (shared with
// selection's dedup).
import type { SourceItem, StoredItem } from '../core/types.js';
import { githubRepoUrl } from '../core/urls.js';
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
  const githubRepo = githubRepoUrl(item.githubRepo);
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
    sources: [{ sourceId, url, upvotes, ...(githubRepo ? { githubRepo } : {}) }],
    manual: null,
    firstSeenAt: now,
  };
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
