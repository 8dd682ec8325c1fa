// `digest send`: one edition to every confirmed subscriber, through the send log (see src/mail/ and
// src/store/send-log.ts). Recipients are written as rows before the first mail; a rerun adds readers confirmed
// since, skips those who left, and resends nothing already sent. Uncertain rows (a process killed between the
// server's "250" and the log write) are reported and, by default, not resent: a reader may miss one edition
// rather than get it twice. `resendUncertain` turns that round.
import { refuseFlagged } from '../core/edition-flags.js';
import { NotReadyError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { deadClaimers, newClaimerId } from '../mail/claimer.js';
import { runSendWorker, type SendEvent } from '../mail/send-run.js';
import { sendSettings } from '../mail/settings.js';
import { createSmtpSender } from '../mail/smtp-sender.js';
import type { SendCounts } from '../store/send-log.js';
import type { Store } from '../store/types.js';
import type { SendDeps } from './ports.js';
import { chooseEditionToSend } from './send-choice.js';
import { prepareSendMail, sendReaders } from './send-mail.js';
import {
  emptyOutcome,
  type ProgressHooks,
  type SendOutcome,
  sendLogState,
  trackProgress,
} from './send-outcome.js';

export type { SendOutcome, SendProgress } from './send-outcome.js';
export type { SendEvent };

export interface SendInput extends ProgressHooks {
  /** The edition; default the newest published one, unless it has been sent (see send-choice.ts). */
  week?: string;
  /** Say who would get it; write nothing, send nothing. */
  dryRun?: boolean;
  /** Send even with fallbacks or flagged items. */
  allowFlagged?: boolean;
  /** Queue uncertain rows again (their readers may get the mail twice). */
  resendUncertain?: boolean;
  /** Public base URL for unsubscribe links (default server.baseUrl, then publish.baseUrl). */
  baseUrl?: string;
}

/** The input with its edition chosen. */
type WeekInput = SendInput & { week: string };

export async function send(deps: SendDeps, request: SendInput): Promise<SendOutcome> {
  const { store, log, config } = deps;
  let input: WeekInput;
  if (request.week) input = { ...request, week: request.week };
  else {
    const choice = await chooseEditionToSend(store);
    log.info(choice.note);
    if (!choice.week)
      return { ...emptyOutcome('', request.dryRun ?? false), complete: true, nothingToSend: true };
    input = { ...request, week: choice.week };
  }
  const edition = await sendableEdition(deps, input);
  const settings = sendSettings(config, deps.env, input.baseUrl);
  const base = emptyOutcome(input.week, input.dryRun ?? false);
  if (input.dryRun) {
    const wouldSend = await previewAll(deps, input.week);
    log.info(`Dry run: ${wouldSend.length} reader(s) would get "${edition.title}"; nothing written or sent.`);
    return { ...base, wouldSend, counts: await store.sendLog.counts(input.week) };
  }
  const readers = sendReaders(deps, settings.send.bounceLimit, edition.date);
  const mail = await prepareSendMail(deps, edition, settings);
  const worker = newClaimerId();
  const claim = { worker, deadClaimers: deadClaimers(await store.sendLog.claimers(input.week), worker) };
  const rows = await queueRows({
    deps,
    input,
    edition,
    claim: { ...claim, leaseSeconds: settings.send.leaseSeconds },
  });
  const { run, onEvent } = trackProgress(log, rows.total, input);
  const sender = createSmtpSender({ ...settings.smtp, connections: settings.send.concurrency });
  try {
    await runSendWorker({
      store,
      mail,
      sender,
      claim,
      readers,
      limits: settings.send,
      onEvent,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } finally {
    sender.close();
  }
  if (mail.variants() > 1)
    log.info(`Readers got ${mail.variants()} versions of the edition (by their language and topics).`);
  const { added, foundUncertain, requeued } = rows;
  return { ...base, added, foundUncertain, requeued, run, ...(await sendLogState(store, input.week)) };
}

/** The week's edition, built and published (the mail links to its page), and not flagged unless allowed. */
async function sendableEdition(deps: Pick<SendDeps, 'store'>, input: WeekInput): Promise<Edition> {
  const edition = await deps.store.editions.get(input.week);
  if (!edition) {
    throw new NotReadyError(
      `No edition for ${input.week}: build it first (digest build --week ${input.week}).`,
    );
  }
  if (!edition.publishedAt) {
    throw new NotReadyError(
      `Edition ${input.week} is not published: publish it first (digest publish --week ${input.week}); ` +
        'the mail links to its page.',
    );
  }
  refuseFlagged(edition, 'send', input.allowFlagged ?? false);
  return edition;
}

/**
 * The send log before the first mail: rows a gone process left are queued again or uncertain, uncertain ones
 * queued again on --resend-uncertain, readers confirmed since added. Says what it found; `total` is this run's work.
 */
async function queueRows({
  deps,
  input,
  edition,
  claim,
}: {
  deps: Pick<SendDeps, 'store' | 'log'>;
  input: WeekInput;
  edition: Edition;
  claim: { deadClaimers: readonly string[]; leaseSeconds: number };
}): Promise<{ added: number; foundUncertain: number; requeued: number; total: number }> {
  const { store, log } = deps;
  const abandoned = await store.sendLog.recoverAbandoned(input.week, claim.deadClaimers, claim.leaseSeconds);
  const foundUncertain = abandoned.uncertain;
  const requeued = input.resendUncertain ? await store.sendLog.requeueUncertain(input.week) : 0;
  const { added, skipped, retried } = await store.sendLog.enqueue(input.week);
  const before = await store.sendLog.counts(input.week);
  if (abandoned.requeued) {
    log.info(
      `${abandoned.requeued} mail(s) an earlier run had started but not finished (the server never got their end): sending them again.`,
    );
  }
  if (foundUncertain) {
    log.warn(
      `${foundUncertain} mail(s) were being sent when an earlier run stopped: uncertain whether they arrived` +
        `${input.resendUncertain ? '; sending them again (--resend-uncertain)' : '; not resent (use --resend-uncertain to resend)'}.`,
    );
  }
  log.info(
    `Sending "${edition.title}": ${before.queued + before.retrying} to send, ${before.sent} already sent` +
      `${added ? `, ${added} new reader(s)` : ''}${retried ? `, ${retried} failed temporarily before (trying again)` : ''}${skipped ? `, ${skipped} left since the last run (skipped)` : ''}.`,
  );
  return { added, foundUncertain, requeued, total: before.queued + before.retrying };
}

async function previewAll(deps: { store: Pick<Store, 'sendLog'> }, week: string): Promise<string[]> {
  const addresses: string[] = [];
  let afterId = 0;
  for (;;) {
    const page = await deps.store.sendLog.previewRecipients(week, { afterId, limit: 5000 });
    addresses.push(...page.map((row) => row.address));
    if (page.length < 5000) return addresses;
    afterId = page.at(-1)!.id;
  }
}

/** The send log over every edition, for /metrics (mails sent, failed; bounced readers come from countSubscribers). */
export async function sendLogCounts(deps: { store: Pick<Store, 'sendLog'> }): Promise<SendCounts> {
  return deps.store.sendLog.totals();
}
