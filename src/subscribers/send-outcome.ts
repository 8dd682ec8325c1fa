// What `digest send` reports: its progress while it runs (one event per settled mail) and, at the end, the
// edition's send log as it stands. Types here; the use case is send.ts.
import type { Logger } from '../core/ports.js';
import type { SendEvent } from '../mail/send-run.js';
import type { SendCounts, SendKey, SendLogEntry } from '../store/send-log.js';
import type { Store } from '../store/types.js';

export interface SendProgress {
  /** Rows settled in this run (sent, failed for good, skipped). */
  done: number;
  /** Rows this run set out to settle. */
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Temporary failures waiting for their retry. */
  retrying: number;
}

/** This run's mails. */
export interface RunCounts {
  sent: number;
  failed: number;
  skipped: number;
  bounced: number;
}

/** The edition's send log when the run ends. */
export interface SendLogState {
  counts: SendCounts;
  /** A few of the rows that need a look (first 50 of each). */
  uncertain: SendLogEntry[];
  failed: SendLogEntry[];
  /** Rows another process sharing this send still holds when this one finished. */
  inFlightElsewhere: number;
  /** True when every row is sent or skipped (or held by another process still sending). */
  complete: boolean;
}

export interface SendOutcome extends SendLogState {
  week: string;
  dryRun: boolean;
  /** --dry-run: the addresses a send would mail now, in id order. */
  wouldSend: string[];
  /** Rows added for readers without one (the first run: every confirmed reader). */
  added: number;
  /** Rows found "sending" by a process that is gone, now uncertain. */
  foundUncertain: number;
  /** Uncertain rows queued again by --resend-uncertain. */
  requeued: number;
  run: RunCounts;
  /** `--correction`: the revision whose correction notice was sent (absent: the edition was). */
  correction?: number;
  /** Plain `digest send` found the newest published edition sent already: nothing was done. */
  nothingToSend?: true;
}

export interface SendInput extends ProgressHooks {
  /** The edition; default the newest published one, unless it has been sent (see send-choice.ts). */
  week?: string;
  /** Say who would get it; write nothing, send nothing. */
  dryRun?: boolean;
  /** Send even with fallbacks or flagged items. */
  allowFlagged?: boolean;
  /** Send even with fewer items than selection.minItems (otherwise ThinEditionError). */
  allowThin?: boolean;
  /** Queue uncertain rows again (their readers may get the mail twice). */
  resendUncertain?: boolean;
  /** Public base URL for unsubscribe links (default server.baseUrl, then publish.baseUrl). */
  baseUrl?: string;
  /**
   * Not the edition: the correction notice of its latest revision, to each reader who was sent an earlier one
   * (needs `week`; see send-correction.ts).
   */
  correction?: boolean;
}

export interface ProgressHooks {
  onProgress?: (progress: SendProgress) => void;
  /** Every settled mail: for a server's /metrics counters. */
  onEvent?: (event: SendEvent) => void;
}

/** Counts each settled mail into the run and the progress, logs failures, and passes both on to the caller. */
export function trackProgress(
  log: Logger,
  total: number,
  hooks: ProgressHooks,
): { run: RunCounts; onEvent: (event: SendEvent) => void } {
  const run: RunCounts = { sent: 0, failed: 0, skipped: 0, bounced: 0 };
  const progress: SendProgress = { done: 0, total, ...run, retrying: 0 };
  const retrying = new Set<string>();
  const onEvent = (event: SendEvent) => {
    if (event.kind === 'waiting') {
      // A send that waits says for what and until when, so a quiet terminal is never a mystery.
      const at = new Date(Date.now() + event.inMs).toISOString().slice(11, 19);
      log.info(
        `${event.retrying} mail(s) failed for now; next try at ${at} UTC (in ${Math.ceil(event.inMs / 1000)} s)`,
      );
      hooks.onEvent?.(event);
      return;
    }
    if (event.kind === 'retry') retrying.add(event.address);
    else {
      if (event.kind !== 'skipped') retrying.delete(event.address);
      progress.done += 1;
      if (event.kind === 'sent') run.sent += 1;
      else if (event.kind === 'skipped') run.skipped += 1;
      else {
        run.failed += 1;
        if (event.bounced) run.bounced += 1;
        log.warn(`${event.address}: ${event.response}${event.bounced ? ' (now marked bounced)' : ''}`);
      }
    }
    Object.assign(progress, { ...run, retrying: retrying.size });
    hooks.onEvent?.(event);
    hooks.onProgress?.({ ...progress });
  };
  return { run, onEvent };
}

/** The edition's send log after this worker ran out of work. */
export async function sendLogState(store: Pick<Store, 'sendLog'>, week: SendKey): Promise<SendLogState> {
  // Rows still held when this worker runs out of work belong to another process sharing the send (PostgreSQL).
  // Claimers first, then counts: rows only move towards settled, so a claimer seen first covers every row counted.
  const claimers = await store.sendLog.claimers(week);
  const counts = await store.sendLog.counts(week);
  const elsewhere = counts.queued + counts.sending > 0 && claimers.length > 0;
  const [uncertain, failed] = await Promise.all([
    store.sendLog.list(week, { states: ['uncertain', 'sending'], limit: 50 }),
    store.sendLog.list(week, { states: ['failed'], limit: 50 }),
  ]);
  return {
    counts,
    uncertain,
    failed,
    inFlightElsewhere: elsewhere ? counts.queued + counts.sending : 0,
    complete: counts.failed + counts.uncertain === 0 && (elsewhere || counts.queued + counts.sending === 0),
  };
}

export function emptyOutcome(week: string, dryRun: boolean): SendOutcome {
  const counts = { queued: 0, sending: 0, sent: 0, failed: 0, uncertain: 0, skipped: 0, retrying: 0 };
  return {
    week,
    dryRun,
    wouldSend: [],
    added: 0,
    foundUncertain: 0,
    requeued: 0,
    run: { sent: 0, failed: 0, skipped: 0, bounced: 0 },
    counts,
    uncertain: [],
    failed: [],
    inFlightElsewhere: 0,
    complete: false,
  };
}
