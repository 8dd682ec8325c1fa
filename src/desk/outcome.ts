// What a desk action returns, and the refusals every change to a week shares.
import type { DraftDeps } from './ports.js';

/** Done (a word the next page shows as its notice), or refused (a status and why, shown on a page). */
export type DeskOutcome =
  | { ok: true; done: string }
  | { ok: false; status: number; title: string; message: string };

export interface DeskActionContext {
  editor: string;
  week: string;
  /** Where a rebuilt draft's page is written (never the published site). */
  draftDir: string;
}

export const refused = (status: number, title: string, message: string): DeskOutcome => ({
  ok: false,
  status,
  title,
  message,
});

/**
 * Why a change to the week must not run, or null when it may: the form's own problem (`invalid`, checked by the
 * caller) comes first, then an edition already published (a change now would not reach its readers).
 */
export async function refuseChange(
  deps: DraftDeps,
  week: string,
  invalid: DeskOutcome | null = null,
): Promise<DeskOutcome | null> {
  if (invalid) return invalid;
  const edition = await deps.store.editions.get(week);
  if (!edition?.publishedAt) return null;
  return refused(
    409,
    'Already published',
    `The edition of ${week} was published at ${edition.publishedAt}; a change now would not reach its readers.`,
  );
}
