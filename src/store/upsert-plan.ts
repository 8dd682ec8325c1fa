// What one upsert call writes, decided before any write: new rows, changed rows, absorbed rows, new keys.
// Pure. Keys follow StoredItem.key: `arxiv:<id>` once an arXiv id is known (a URL-keyed row that learns its
// id is re-keyed, and references to the old key move with it), otherwise `url:<canonical URL>`.

import { mergeItems } from '../core/item-merge-policy.js';
import type { StoredItem } from '../core/types.js';
import type { ItemGroup } from './item-groups.js';
import { sameStoredFields } from './item-merge.js';

export interface UpsertPlan {
  inserts: StoredItem[];
  /** Stored rows to rewrite, found by their key before this call. */
  updates: { oldKey: string; row: StoredItem }[];
  /** Stored rows merged into another one (only when one item joined two stored rows). */
  deletes: string[];
  /** Old key → new key, for edition_items and decisions. */
  rekeys: { oldKey: string; newKey: string }[];
  /** Final key for each incoming position. */
  keys: Map<number, string>;
  inserted: number;
  merged: number;
}

export function planUpsert(groups: ItemGroup[]): UpsertPlan {
  const plan: UpsertPlan = {
    inserts: [],
    updates: [],
    deletes: [],
    rekeys: [],
    keys: new Map(),
    inserted: 0,
    merged: 0,
  };
  for (const group of groups) {
    if (!group.incoming.length) continue;
    const stored = [...group.stored].sort((a, b) => (a.firstSeenAt < b.firstSeenAt ? -1 : 1));
    const survivor =
      (group.arxivId ? stored.find((row) => row.arxivId === group.arxivId) : undefined) ?? stored[0] ?? null;
    const absorbed = stored.filter((row) => row !== survivor);
    const incoming = group.incoming.map((item) => item.row);
    // The survivor (the paper's row when there is one, else the earliest seen) is the base, as in dedup.
    const [base, ...others] = survivor ? [survivor, ...absorbed, ...incoming] : incoming;
    if (!base) continue;
    let row = others.reduce(mergeItems, base);
    row = {
      ...row,
      arxivId: group.arxivId,
      key: group.arxivId ? `arxiv:${group.arxivId}` : (survivor?.key ?? `url:${base.canonicalUrl}`),
    };
    for (const item of group.incoming) plan.keys.set(item.index, row.key);
    if (!survivor) {
      plan.inserts.push(row);
      plan.inserted += 1;
      plan.merged += group.incoming.length - 1;
      continue;
    }
    plan.merged += group.incoming.length;
    for (const old of absorbed) {
      plan.deletes.push(old.key);
      plan.rekeys.push({ oldKey: old.key, newKey: row.key });
    }
    if (survivor.key !== row.key) plan.rekeys.push({ oldKey: survivor.key, newKey: row.key });
    if (absorbed.length || !sameStoredFields(survivor, row)) plan.updates.push({ oldKey: survivor.key, row });
  }
  return plan;
}
