// "Send at…" on the desk: the published edition's send set for a time in the editor's zone, performed by
// `digest serve`'s scheduler through the one send log; and its cancel, until the send starts. The subscribers
// capability checks the time (readable, in the future) and the edition as `digest send --at` does.
import { NotReadyError, SendTimeError } from '../core/errors.js';
import { formatInZone } from '../core/zoned-time.js';
import { readersToMail } from './desk-send.js';
import { type DeskActionContext, type DeskOutcome, refused } from './outcome.js';
import type { AuditDeps, DraftDeps, RunsDeps } from './ports.js';

export type ScheduleDeskDeps = AuditDeps & DraftDeps & RunsDeps<'scheduleSend' | 'cancelScheduledSend'>;

/** The form: `at` from a datetime-local input, `zone` the browser's (or the one typed; default the server's). */
export async function scheduleOnDesk(
  deps: ScheduleDeskDeps,
  context: DeskActionContext,
  form: Record<string, string>,
): Promise<DeskOutcome> {
  const edition = await deps.store.editions.get(context.week);
  if (!edition?.publishedAt) {
    return refused(
      409,
      'Nothing to send',
      `The edition of ${context.week} is not published: approve and publish it first.`,
    );
  }
  if ((await readersToMail(deps.store, context.week)) === 0) {
    return refused(409, 'Nothing to send', 'Every confirmed reader has it already.');
  }
  try {
    // Published by an editor, who saw its flags and thinness then: it goes as published, as a desk send does.
    const set = await deps.runs.scheduleSend({
      week: context.week,
      at: form.at ?? '',
      timeZone: form.zone?.trim() || undefined,
      by: context.editor,
      allowFlagged: true,
      allowThin: true,
    });
    await deps.store.desk.recordAudit({
      editor: context.editor,
      action: 'send-scheduled',
      week: context.week,
      itemKey: null,
      detail: {
        at: set.sendAt.toISOString(),
        timeZone: set.timeZone,
        local: formatInZone(set.sendAt, set.timeZone),
      },
    });
    return { ok: true, done: 'scheduled' };
  } catch (error) {
    if (error instanceof SendTimeError) return refused(400, 'Not scheduled', error.message);
    if (error instanceof NotReadyError) return refused(409, 'Not scheduled', error.message);
    throw error;
  }
}

export async function cancelOnDesk(deps: ScheduleDeskDeps, context: DeskActionContext): Promise<DeskOutcome> {
  const cancelled = await deps.runs.cancelScheduledSend({ week: context.week });
  if (!cancelled) {
    return refused(
      409,
      'Nothing to cancel',
      `No send of ${context.week} is waiting: it has started (its progress is on the board) or was cancelled.`,
    );
  }
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action: 'send-unscheduled',
    week: context.week,
    itemKey: null,
    detail: { at: cancelled.sendAt.toISOString() },
  });
  return { ok: true, done: 'unscheduled' };
}
