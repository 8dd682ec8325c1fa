// Stores a batch of source items in the caller's transaction: one read of the rows they may match, a pure
// plan (item-groups, upsert-plan), then a few set-based writes. Concurrent upserts on one PostgreSQL database
// wait for each other, so two ingests never insert the same new item twice.

import { type Kysely, sql } from 'kysely';
import { arxivIdFromUrl, canonicalUrl, normaliseArxivId } from '../core/ids.js';
import type { Logger } from '../core/ports.js';
import type { SourceItem } from '../core/types.js';
import { isHttpUrl } from '../core/urls.js';
import { normaliseTimestamp } from './_values.js';
import { groupItems, type IncomingRow } from './item-groups.js';
import { freshItem } from './item-merge.js';
import { toStoredItem } from './item-rows.js';
import type { Database } from './schema.js';
import { planUpsert } from './upsert-plan.js';
import { writePlan } from './upsert-writes.js';

const UPSERT_LOCK = 4_271_020_502;
const MAX_URL_LENGTH = 2048;

export interface UpsertOutcome {
  inserted: number;
  merged: number;
  skipped: number;
  /** Final key per input position; undefined for a skipped item. */
  keys: (string | undefined)[];
}

export async function upsertItemsIn(
  tx: Kysely<Database>,
  items: SourceItem[],
  log?: Logger,
): Promise<UpsertOutcome> {
  const { rows } = await sql<{
    now: Date;
  }>`SELECT pg_advisory_xact_lock(${UPSERT_LOCK}), now() AS now`.execute(tx);
  const now = new Date(rows[0]?.now ?? Date.now()).toISOString();
  const incoming: IncomingRow[] = [];
  items.forEach((item, index) => {
    const identity = identify(item);
    if (typeof identity === 'string') log?.warn(`store: skipped an item from ${item.sourceId}: ${identity}`);
    else incoming.push({ index, row: freshItem({ ...item, url: identity.url }, identity, now) });
  });
  const urls = [...new Set(incoming.map((item) => item.row.canonicalUrl))];
  const ids = [...new Set(incoming.flatMap((item) => (item.row.arxivId ? [item.row.arxivId] : [])))];
  // Only the rows these items may match: never the whole table.
  const stored = incoming.length
    ? await tx
        .selectFrom('items')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('canonical_url', '=', sql<string>`ANY(${urls}::text[])`),
            eb('arxiv_id', '=', sql<string>`ANY(${ids}::text[])`),
          ]),
        )
        .execute()
    : [];
  const notes: string[] = [];
  const plan = planUpsert(groupItems(stored.map(toStoredItem), incoming, notes));
  for (const note of notes) log?.debug(`store: ${note}`);
  await writePlan(tx, plan);
  return {
    inserted: plan.inserted,
    merged: plan.merged,
    skipped: items.length - incoming.length,
    keys: items.map((_item, index) => plan.keys.get(index)),
  };
}

interface Identity {
  url: string;
  canonicalUrl: string;
  arxivId: string | null;
  publishedAt: string;
}

/** The identity of an item, or why it cannot be stored. */
function identify(item: SourceItem): Identity | string {
  const publishedAt = normaliseTimestamp(String(item.publishedAt ?? ''));
  if (!publishedAt) return `"${String(item.publishedAt)}" is not a date (${item.url})`;
  let url = typeof item.url === 'string' ? item.url.trim() : '';
  const arxivId = (item.arxivId ? normaliseArxivId(item.arxivId) : null) ?? arxivIdFromUrl(url);
  // Only web links are kept: a javascript: or data: link never becomes an item's address.
  if (!isHttpUrl(url)) {
    if (!arxivId) return `"${url.slice(0, 200)}" is not an http(s) URL`;
    url = `https://arxiv.org/abs/${arxivId}`;
  }
  const canonical = canonicalUrl(url);
  // B-tree index entries are limited to about 2.7 kB; longer addresses are not links anyone follows.
  if (canonical.length > MAX_URL_LENGTH)
    return `a ${canonical.length}-character URL is too long (${url.slice(0, 80)}…)`;
  return { url, canonicalUrl: canonical, arxivId, publishedAt };
}
