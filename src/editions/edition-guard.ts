// The one guard every door that could change an edition goes through: a build (CLI, desk, schedule), add, pin and
// skip, the desk's edit, regenerate, swap, reorder, count, approve and translations. An edition is frozen once it is
// published or any mail of it went out (the send log has a row that was sent, is being sent, or may have been):
// what readers got is what the archive keeps. A change after that is a correction (`digest correct`), a new
// revision with a reason, never a silent rewrite.
import { PublishedEditionError } from '../core/errors.js';
import type { Store } from '../store/types.js';

/** The store groups the guard reads: the stored edition and the week's send log. */
export type GuardGroups = 'editions' | 'sendLog';
export type GuardStore = Pick<Store, GuardGroups>;

export interface FrozenEdition {
  week: string;
  publishedAt: string | null;
  /** Readers the edition was (or may have been) handed to. */
  mailed: number;
}

/** The week's edition when it is frozen (published or mailed), else null. */
export async function frozenEdition(store: GuardStore, week: string): Promise<FrozenEdition | null> {
  const [edition, counts] = await Promise.all([store.editions.get(week), store.sendLog.counts(week)]);
  const mailed = counts.sent + counts.sending + counts.uncertain;
  const publishedAt = edition?.publishedAt ?? null;
  return publishedAt || mailed > 0 ? { week, publishedAt, mailed } : null;
}

/** The command that changes a frozen edition the honest way. */
export const correctionCommand = (week: string) => `./digest correct --week ${week} --reason "…"`;

/** Why the change is refused, and what to do instead. */
export function frozenMessage(frozen: FrozenEdition, door: string): string {
  const state = [
    frozen.publishedAt ? `published at ${frozen.publishedAt}` : null,
    frozen.mailed > 0 ? `mailed to ${frozen.mailed} reader(s)` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    `The edition of ${frozen.week} is ${state}: ${door} would change what readers were sent, so nothing was done. ` +
    `To change it, open a correction: ${correctionCommand(frozen.week)}`
  );
}

/**
 * Throws PublishedEditionError when the week's edition is frozen; call it before any work. `unchanged`: the caller
 * asked only to rebuild it as it is, which is answered "already published" with nothing written (for a published
 * edition; one only mailed is refused like any change).
 */
export async function guardEdition({
  store,
  week,
  door,
  options = {},
}: {
  store: GuardStore;
  week: string;
  door: string;
  options?: { unchanged?: boolean };
}): Promise<void> {
  const frozen = await frozenEdition(store, week);
  if (!frozen) return;
  // Mailed but never published: nothing "already published" to rebuild as it is; any build is refused.
  if (options.unchanged && frozen.publishedAt) {
    throw new PublishedEditionError(
      `The edition of ${week} is already published; nothing was built or written. ` +
        `To change it, open a correction: ${correctionCommand(week)}`,
      week,
      true,
    );
  }
  throw new PublishedEditionError(frozenMessage(frozen, door), week);
}
