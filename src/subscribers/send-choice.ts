// Plain `digest send` (no --week), as a cron line after `build && publish` means it: the newest published edition,
// unless its mail has gone out. An older edition is never mailed by default (old news); --week names one.
import { NotReadyError } from '../core/errors.js';
import type { Store } from '../store/types.js';

export interface SendChoice {
  /** The edition to send, or null when the newest published one is sent already. */
  week: string | null;
  /** What was chosen and why, for the operator. */
  note: string;
}

/** How many editions back a newer unpublished one is looked for (only for the note). */
const LOOK_BACK = 20;

export async function chooseEditionToSend(store: Pick<Store, 'editions' | 'sendLog'>): Promise<SendChoice> {
  const editions = await store.editions.list({ limit: LOOK_BACK });
  const published = editions.find((edition) => edition.publishedAt !== null);
  const newer = editions.filter((edition) => !published || edition.date > published.date);
  const unpublished = newer.length
    ? ` (${newer.map((edition) => edition.date).join(', ')} built but not published: ./digest publish first)`
    : '';
  if (!published) {
    throw new NotReadyError(
      `No published edition to send${unpublished || ': build one (./digest build, or ./digest demo), then ./digest publish'}.`,
    );
  }
  const counts = await store.sendLog.counts(published.date);
  const pending = counts.queued + counts.sending + counts.retrying;
  const done = counts.sent + counts.skipped + counts.failed + counts.uncertain;
  if (done > 0 && pending === 0) {
    return {
      week: null,
      note: `Nothing to send: ${published.date}, the newest published edition, has been sent${unpublished}. An older one: --week DATE.`,
    };
  }
  return {
    week: published.date,
    note: `Sending ${published.date}, the newest published edition${unpublished}.`,
  };
}
