// "Send at…": an edition's send set for a later time (the desk, `digest send --at`), and its cancel. The checks of a
// send now are made when it is set — published, not flagged or thin unless allowed — so the editor hears of them
// while they can still act; at its time `digest serve` performs it as the editor asked (see send-scheduler.ts).
import { refuseFlagged } from '../core/edition-flags.js';
import { minItemsFor, refuseThin } from '../core/edition-thin.js';
import { NotReadyError, SendTimeError } from '../core/errors.js';
import { isTimeZone, parseZonedTime } from '../core/zoned-time.js';
import type { DigestDeps } from '../deps.js';
import type { ScheduledSend } from '../store/scheduled-sends.js';
import type { Store } from '../store/types.js';
import { chooseEditionToSend } from './send-choice.js';
import { publishedEdition } from './send-rows.js';

export type ScheduleSendDeps = Pick<DigestDeps, 'config' | 'clock'> & {
  store: Pick<Store, 'editions' | 'sendLog' | 'scheduledSends'>;
};

export interface ScheduleSendInput {
  /** The edition (default: the newest published one, unless it has been sent). */
  week?: string | undefined;
  /** `2026-05-11T08:00` in `timeZone`, or with its own offset (`…Z`, `…+02:00`). */
  at: string;
  /** The zone the time is read in and shown back in (default: the schedule's, schedule.timeZone). */
  timeZone?: string | undefined;
  /** Who set it: an editor's address, or "cli". */
  by: string;
  allowFlagged?: boolean | undefined;
  allowThin?: boolean | undefined;
}

export async function scheduleSend(deps: ScheduleSendDeps, input: ScheduleSendInput): Promise<ScheduledSend> {
  const { store, config, clock } = deps;
  const now = clock.now();
  const timeZone = input.timeZone || config.schedule.timeZone;
  if (!isTimeZone(timeZone))
    throw new SendTimeError(`"${timeZone}" is not a time zone (e.g. Europe/Berlin, UTC).`);
  const at = parseZonedTime(input.at, timeZone);
  if (!at) {
    throw new SendTimeError(`"${input.at}" is not a time: expected a date and time like 2026-05-11T08:00.`);
  }
  if (at.getTime() <= now.getTime()) {
    throw new SendTimeError(
      `${input.at} (${at.toISOString()}) is not in the future (it is ${now.toISOString()}): choose a later time, or send now.`,
    );
  }
  const week = input.week ?? (await newestUnsent(store));
  const edition = await publishedEdition(deps, week);
  refuseFlagged(edition, 'send', input.allowFlagged ?? false);
  refuseThin(edition, 'send', {
    minItems: minItemsFor(config.selection.minItems, config.itemsPerEdition),
    allowThin: input.allowThin ?? false,
  });
  return store.scheduledSends.schedule({
    edition: week,
    sendAt: at,
    timeZone,
    createdBy: input.by,
  });
}

/** Cancels the week's waiting send (default: the newest one waiting); null when none is waiting. */
export async function cancelScheduledSend(
  deps: { store: Pick<Store, 'scheduledSends'> },
  input: { week?: string | undefined },
): Promise<ScheduledSend | null> {
  const week = input.week ?? (await deps.store.scheduledSends.nextWaiting())?.edition;
  return week ? deps.store.scheduledSends.cancel(week) : null;
}

async function newestUnsent(store: Pick<Store, 'editions' | 'sendLog'>): Promise<string> {
  const choice = await chooseEditionToSend(store);
  if (!choice.week) throw new NotReadyError(choice.note);
  return choice.week;
}
