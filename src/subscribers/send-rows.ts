// What `digest send` and `digest send --correction` share: the send log made ready before the first mail (rows a
// gone process left, uncertain ones on request, readers since), then this process's worker through the rows.
// The edition and each correction notice are keyed apart in the send log (store/send-log.ts: SendKey), so each goes
// at most once to a reader, through the same reservation and hand-over.
import { NotReadyError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { deadClaimers, newClaimerId } from '../mail/claimer.js';
import type { OutgoingMail } from '../mail/edition-mail.js';
import type { PersonalRecipient } from '../mail/personal-mail.js';
import { runSendWorker } from '../mail/send-run.js';
import type { SendSettings } from '../mail/settings.js';
import { checkSmtpConnection } from '../mail/smtp-connection-check.js';
import { createSmtpSender } from '../mail/smtp-sender.js';
import type { SendKey } from '../store/send-log.js';
import type { Store } from '../store/types.js';
import type { SendDeps } from './ports.js';
import { sendReaders } from './send-mail.js';
import {
  type ProgressHooks,
  type SendLogState,
  type SendOutcome,
  sendLogState,
  trackProgress,
} from './send-outcome.js';

/** One mail of an edition to its readers: the edition, or the correction notice of revision `notice`. */
export interface RowsMail {
  edition: string;
  /** The correction notice of this revision; absent: the edition itself. */
  notice?: number | undefined;
  /** The revision the mail carries, recorded on each reader's row. */
  revision: number;
  compose(recipient: PersonalRecipient): Promise<OutgoingMail>;
}

export interface DeliverInput {
  mail: RowsMail;
  /** What is sent, for the log ("Sending …"). */
  label: string;
  settings: SendSettings;
  /** Queue uncertain rows again (their readers may get the mail twice). */
  resendUncertain: boolean;
  hooks: ProgressHooks;
}

/** Readies the send log and sends this worker's share; the log's state when it ran out of work. */
export async function deliver(
  deps: SendDeps,
  input: DeliverInput,
): Promise<Pick<SendOutcome, 'added' | 'foundUncertain' | 'requeued' | 'run'> & SendLogState> {
  const { store } = deps;
  const { mail, settings } = input;
  const key = keyOfMail(mail);
  const worker = newClaimerId();
  const claim = { worker, deadClaimers: deadClaimers(await store.sendLog.claimers(key), worker) };
  const rows = await queueRows(deps, {
    key,
    label: input.label,
    resendUncertain: input.resendUncertain,
    claim: { ...claim, leaseSeconds: settings.send.leaseSeconds },
  });
  const { run, onEvent } = trackProgress(deps.log, rows.total, input.hooks);
  // A server nobody can connect to stops the send here, before a reader is reserved or marked.
  if (rows.total > 0) await checkServer(deps, settings);
  const sender = createSmtpSender({ ...settings.smtp, connections: settings.send.concurrency });
  try {
    await runSendWorker({
      store,
      mail,
      sender,
      claim,
      readers: sendReaders(deps, settings.send.bounceLimit, mail.edition),
      limits: settings.send,
      onEvent,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } finally {
    sender.close();
  }
  const { added, foundUncertain, requeued } = rows;
  return { added, foundUncertain, requeued, run, ...(await sendLogState(store, key)) };
}

/** The bounded connection check before the first mail; each wait says when the next try is. */
async function checkServer(deps: Pick<SendDeps, 'log' | 'signal'>, settings: SendSettings): Promise<void> {
  const { server } = settings.smtp;
  await checkSmtpConnection({
    server,
    retryDelayMs: settings.send.retryDelayMs,
    onRetry: ({ message, nextTryAt, inMs }) =>
      deps.log.warn(
        `SMTP server ${server.host}:${server.port}: ${message}; next try at ` +
          `${nextTryAt.toISOString().slice(11, 19)} UTC (in ${Math.ceil(inMs / 1000)} s)`,
      ),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

export function keyOfMail(mail: Pick<RowsMail, 'edition' | 'notice'>): SendKey {
  return { edition: mail.edition, notice: mail.notice ?? 0 };
}

/**
 * The send log before the first mail: rows a gone process left are queued again or uncertain, uncertain ones
 * queued again on --resend-uncertain, readers since added. Says what it found; `total` is this run's work.
 */
async function queueRows(
  deps: Pick<SendDeps, 'store' | 'log'>,
  {
    key,
    label,
    resendUncertain,
    claim,
  }: {
    key: SendKey;
    label: string;
    resendUncertain: boolean;
    claim: { deadClaimers: readonly string[]; leaseSeconds: number };
  },
): Promise<{ added: number; foundUncertain: number; requeued: number; total: number }> {
  const { store, log } = deps;
  const abandoned = await store.sendLog.recoverAbandoned(key, claim.deadClaimers, claim.leaseSeconds);
  const foundUncertain = abandoned.uncertain;
  const requeued = resendUncertain ? await store.sendLog.requeueUncertain(key) : 0;
  const { added, skipped, retried } = await store.sendLog.enqueue(key);
  const before = await store.sendLog.counts(key);
  if (abandoned.requeued) {
    log.info(
      `${abandoned.requeued} mail(s) an earlier run had started but not finished (the server never got their end): sending them again.`,
    );
  }
  if (foundUncertain) {
    log.warn(
      `${foundUncertain} mail(s) were being sent when an earlier run stopped: uncertain whether they arrived` +
        `${resendUncertain ? '; sending them again (--resend-uncertain)' : '; not resent (use --resend-uncertain to resend)'}.`,
    );
  }
  log.info(
    `Sending ${label}: ${before.queued + before.retrying} to send, ${before.sent} already sent` +
      `${added ? `, ${added} new reader(s)` : ''}${retried ? `, ${retried} failed temporarily before (trying again)` : ''}${skipped ? `, ${skipped} left since the last run (skipped)` : ''}.`,
  );
  return { added, foundUncertain, requeued, total: before.queued + before.retrying };
}

/** The week's edition, built and published: every mail to readers links to its page. */
export async function publishedEdition(deps: Pick<SendDeps, 'store'>, week: string): Promise<Edition> {
  const edition = await deps.store.editions.get(week);
  if (!edition) {
    throw new NotReadyError(`No edition for ${week}: build it first (./digest build --week ${week}).`);
  }
  if (!edition.publishedAt) {
    throw new NotReadyError(
      `Edition ${week} is not published: publish it first (./digest publish --week ${week}); ` +
        'the mail links to its page.',
    );
  }
  return edition;
}

/** `--dry-run`: every address the send would mail now. */
export async function previewAll(deps: { store: Pick<Store, 'sendLog'> }, key: SendKey): Promise<string[]> {
  const addresses: string[] = [];
  let afterId = 0;
  for (;;) {
    const page = await deps.store.sendLog.previewRecipients(key, { afterId, limit: 5000 });
    addresses.push(...page.map((row) => row.address));
    if (page.length < 5000) return addresses;
    afterId = page.at(-1)!.id;
  }
}
