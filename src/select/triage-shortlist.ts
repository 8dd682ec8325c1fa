// Which candidates go to LLM triage: the best of the offline ranking, not all of them. Triage is a cheap
// second opinion on the contenders; sending a 2,000-item week would cost more than writing the edition.
import type { StoredItem } from '../core/types.js';
import { planEdition } from './plan-edition.js';
import type { SelectionPolicy } from './types.js';

/** Default shortlist: this many candidates per edition slot (12 items → 60 triaged). */
export const TRIAGE_PER_SLOT = 5;

/**
 * The top `limit` candidates of the offline plan (merged and de-duplicated, so their keys are the keys the
 * final plan uses). Pinned and manual items are in anyway and are not triaged.
 */
export function triageShortlist({
  candidates,
  policy,
  date,
  limit = policy.itemsPerEdition * TRIAGE_PER_SLOT,
}: {
  candidates: StoredItem[];
  policy: SelectionPolicy;
  date: string;
  limit?: number | undefined;
}): StoredItem[] {
  const { relevance: _ignored, ...offline } = policy;
  return planEdition(candidates, offline, date)
    .ranked.filter((row) => !row.pinned)
    .slice(0, Math.max(0, limit))
    .map((row) => row.item);
}
