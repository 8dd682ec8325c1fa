// Sending from the desk: "Send to N readers" on a published edition, and "Mail the notice to N readers" after a
// correction. Both run the subscribers capability's `send` (the `digest send` and `digest send --correction` use
// case) in the background, through the one send log: a reader gets each mail once whichever door started it, and a
// server stopped mid-send leaves the rest to the next run. The board shows the log's counts as it goes.
import { errorMessage } from '../core/errors.js';
import { editionRevision } from '../core/types.js';
import { formatInZone } from '../core/zoned-time.js';
import type { SendKey } from '../store/send-log.js';
import type { Store } from '../store/types.js';
import { sendBreakdown } from './desk-send-counts.js';
import { type DeskActionContext, type DeskOutcome, refused } from './outcome.js';
import type { ApprovalSendDeps, DeskDeps, DraftDeps, MailingDeps } from './ports.js';
import type { MailingState, ScheduledSendView, SendView } from './views/view-model.js';

/** Readers a send of `key` would mail now: confirmed and not sent it already (the send log's own preview). */
export async function readersToMail(store: DraftDeps['store'], key: SendKey): Promise<number> {
  let count = 0;
  let afterId = 0;
  for (;;) {
    const page = await store.sendLog.previewRecipients(key, { afterId, limit: 5000 });
    count += page.length;
    if (page.length < 5000) return count;
    afterId = page.at(-1)?.id ?? afterId;
  }
}

/** What the board shows of a published week's mail: the send's counts, and who is still to be mailed. */
export async function mailingState(deps: MailingDeps, week: string): Promise<MailingState | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition?.publishedAt) return null;
  const revision = editionRevision(edition);
  const noticeKey = { edition: week, notice: revision };
  const [counts, toMail, scheduled, notice] = await Promise.all([
    deps.store.sendLog.counts(week),
    readersToMail(deps.store, week),
    scheduledSendView(deps, week),
    revision > 1
      ? Promise.all([deps.store.sendLog.counts(noticeKey), readersToMail(deps.store, noticeKey)])
      : null,
  ]);
  return {
    edition: {
      sent: counts.sent,
      failed: counts.failed - counts.retrying,
      uncertain: counts.uncertain + counts.sending,
      waiting: counts.queued + counts.retrying,
      skipped: counts.skipped,
    },
    toMail,
    notice: notice && { revision, sent: notice[0].sent, toMail: notice[1] },
    scheduled,
  };
}

/** The week's latest send set for later, as the board and the send page show it; null when none or cancelled. */
export async function scheduledSendView(deps: MailingDeps, week: string): Promise<ScheduledSendView | null> {
  const send = await deps.store.scheduledSends.latest(week);
  if (!send || send.state === 'cancelled') return null;
  return {
    state: send.state,
    local: formatInZone(send.sendAt, send.timeZone),
    zone: send.timeZone,
    utc: formatInZone(send.sendAt, 'UTC'),
    by: send.createdBy,
  };
}

/** What the confirmation reads: the send log, the readers' choices, a send set for later, the default language. */
type SendViewDeps = MailingDeps & Pick<DeskDeps, 'config'> & { store: Pick<Store, 'preferences'> };

/** The confirmation of a desk send: the edition, or its latest correction notice; null when there is nothing to send. */
export async function sendView(
  deps: SendViewDeps,
  week: string,
  kind: 'edition' | 'notice',
): Promise<SendView | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition?.publishedAt) return null;
  const revision = editionRevision(edition);
  if (kind === 'notice' && revision < 2) return null;
  const key: SendKey = kind === 'notice' ? { edition: week, notice: revision } : week;
  const [readers, breakdown, scheduled] = await Promise.all([
    kind === 'notice' ? readersToMail(deps.store, key) : null,
    kind === 'edition' ? sendBreakdown(deps.store, { week, languages: deps.config.languages }) : null,
    kind === 'edition' ? scheduledSendView(deps, week) : null,
  ]);
  return {
    week,
    kind,
    title: edition.title,
    revision,
    readers: breakdown?.readers ?? readers ?? 0,
    breakdown,
    timeZone: deps.config.schedule.timeZone,
    scheduled,
  };
}

/** Starts the send in the background and answers at once; the board shows its progress from the send log. */
export async function sendOnDesk(
  deps: SendViewDeps & ApprovalSendDeps,
  context: DeskActionContext,
  kind: 'edition' | 'notice',
): Promise<DeskOutcome> {
  const view = await sendView(deps, context.week, kind);
  if (!view) {
    return refused(
      409,
      'Nothing to send',
      kind === 'notice'
        ? `The edition of ${context.week} has no published correction: correct it first.`
        : `The edition of ${context.week} is not published: approve and publish it first.`,
    );
  }
  if (view.readers === 0) return refused(409, 'Nothing to send', 'Every confirmed reader has it already.');
  startSend(deps, context, kind);
  return { ok: true, done: kind === 'notice' ? 'notice-sending' : 'sending' };
}

/**
 * The send, after the reply (thousands of mails take minutes); its outcome goes to the audit log. The edition was
 * published by an editor (flags and thinness were seen then), so it goes as published.
 */
export function startSend(
  deps: ApprovalSendDeps,
  context: DeskActionContext,
  kind: 'edition' | 'notice',
): void {
  const names =
    kind === 'notice'
      ? { started: 'notice-started', done: 'notice-sent', failed: 'notice-failed' }
      : { started: 'send-started', done: 'sent', failed: 'send-failed' };
  const audit = (action: string, detail: Record<string, unknown>) =>
    deps.store.desk
      .recordAudit({ editor: context.editor, action, week: context.week, itemKey: null, detail })
      .catch((error: unknown) => deps.log.warn(`desk: audit of ${action} failed: ${errorMessage(error)}`));
  void (async () => {
    await audit(names.started, {});
    try {
      const result = await deps.runs.send({
        week: context.week,
        allowFlagged: true,
        allowThin: true,
        ...(kind === 'notice' ? { correction: true } : {}),
      });
      await audit(names.done, { ...result.counts });
    } catch (error) {
      const rerun = `./digest send --week ${context.week}${kind === 'notice' ? ' --correction' : ''}`;
      deps.log.warn(`desk: sending ${context.week} failed: ${errorMessage(error)} (run "${rerun}")`);
      await audit(names.failed, { error: errorMessage(error) });
    }
  })();
}
