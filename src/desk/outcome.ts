// What a desk action returns, and the refusals every change to a week shares.
import { PublishedEditionError } from '../core/errors.js';
import { frozenEdition, frozenMessage, type GuardStore } from '../editions/index.js';

/**
 * Done (a word the next page shows as its notice), or refused (a status and why, shown on a page; `correct`: the
 * edition is published or mailed, and the page offers to start a correction of that week instead).
 */
export type DeskOutcome =
  | { ok: true; done: string }
  | { ok: false; status: number; title: string; message: string; correct?: string };

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

const ALREADY_PUBLISHED = 'Already published';

/**
 * Why a change to the week must not run, or null when it may: the form's own problem (`invalid`, checked by the
 * caller) comes first, then the editions capability's guard (published or mailed: a correction instead). Every desk
 * action that could change an edition calls this before any work.
 */
export async function refuseChange({
  deps,
  week,
  invalid = null,
  door = 'this change',
}: {
  deps: { store: GuardStore };
  week: string;
  invalid?: DeskOutcome | null;
  door?: string;
}): Promise<DeskOutcome | null> {
  if (invalid) return invalid;
  const frozen = await frozenEdition(deps.store, week);
  if (!frozen) return null;
  return frozenRefusal(frozenMessage(frozen, door), week);
}

/** The guard's refusal thrown by a use case of another capability (a build), as the desk's 409; null for other errors. */
export function publishedRefusal(error: unknown): DeskOutcome | null {
  if (!(error instanceof PublishedEditionError)) return null;
  return frozenRefusal(error.message, error.week);
}

const frozenRefusal = (message: string, week: string): DeskOutcome => ({
  ok: false,
  status: 409,
  title: ALREADY_PUBLISHED,
  message,
  correct: week,
});
