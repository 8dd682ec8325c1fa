// Which rows describe the same real-world item: incoming source items and the stored rows they match.
// Pure. Rules, in order:
//  - same arXiv id → same item;
//  - same canonical URL → same item, unless both sides carry different arXiv ids: then the URL wins and the
//    incoming id is ignored (the page was already known as another paper; a note says so);
//  - an incoming item that matches one row by arXiv id and another, id-less row by URL joins all three.
import type { StoredItem } from '../core/types.js';

export interface IncomingRow {
  /** Position in the upsert call. */
  index: number;
  row: StoredItem;
}

export interface ItemGroup {
  stored: StoredItem[];
  incoming: IncomingRow[];
  arxivId: string | null;
}

interface Entity extends ItemGroup {
  urls: string[];
}

export function groupItems(stored: StoredItem[], incoming: IncomingRow[], notes: string[] = []): ItemGroup[] {
  const byUrl = new Map<string, Entity>();
  const byArxiv = new Map<string, Entity>();
  const live = new Set<Entity>();
  const create = (canonicalUrl: string, arxivId: string | null): Entity => {
    const entity: Entity = { stored: [], incoming: [], arxivId, urls: [canonicalUrl] };
    byUrl.set(canonicalUrl, entity);
    if (arxivId) byArxiv.set(arxivId, entity);
    live.add(entity);
    return entity;
  };
  for (const row of stored) create(row.canonicalUrl, row.arxivId).stored.push(row);

  for (const item of incoming) {
    const { canonicalUrl, arxivId } = item.row;
    const byId = arxivId ? byArxiv.get(arxivId) : undefined;
    const byLink = byUrl.get(canonicalUrl);
    let target: Entity;
    if (byId && byLink && byId !== byLink) {
      if (byLink.arxivId === null) {
        absorb({ into: byId, from: byLink, byUrl, live });
        target = byId;
      } else {
        notes.push(`${canonicalUrl} is already stored as arXiv:${byLink.arxivId}; ignored arXiv:${arxivId}`);
        target = byLink;
      }
    } else if (byLink) {
      target = byLink;
      if (arxivId && byLink.arxivId === null) {
        byLink.arxivId = arxivId;
        byArxiv.set(arxivId, byLink);
      } else if (arxivId && byLink.arxivId !== arxivId) {
        notes.push(`${canonicalUrl} is already stored as arXiv:${byLink.arxivId}; ignored arXiv:${arxivId}`);
      }
    } else if (byId) {
      target = byId;
      byId.urls.push(canonicalUrl);
      byUrl.set(canonicalUrl, byId);
    } else {
      target = create(canonicalUrl, arxivId);
    }
    target.incoming.push(item);
  }
  return [...live].map(({ stored: rows, incoming: items, arxivId }) => ({
    stored: rows,
    incoming: items.sort((a, b) => a.index - b.index),
    arxivId,
  }));
}

function absorb({
  into,
  from,
  byUrl,
  live,
}: {
  into: Entity;
  from: Entity;
  byUrl: Map<string, Entity>;
  live: Set<Entity>;
}): void {
  into.stored.push(...from.stored);
  into.incoming.push(...from.incoming);
  for (const url of from.urls) {
    byUrl.set(url, into);
    into.urls.push(url);
  }
  live.delete(from);
}
