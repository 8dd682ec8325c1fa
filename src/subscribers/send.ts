// `digest send`: one edition to every confirmed subscriber, through the send log (see src/mail/ and
// src/store/send-log.ts). Recipients are written as rows before the first mail; a rerun adds readers confirmed
// since, skips those who left, and resends nothing already sent. Uncertain rows (a process killed between the
// server's "250" and the log write) are reported and, by default, not resent: a reader may miss one edition
// rather than get it twice. `resendUncertain` turns that round.
import { readSecret } from '../config/secret.js';
import { refuseFlagged } from '../core/edition-flags.js';
import { NotFoundError } from '../core/errors.js';
import { applyTranslation } from '../core/translation.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import type { DigestDeps } from '../deps.js';
import { deadClaimers, newClaimerId } from '../mail/claimer.js';
import { type LanguageEdition, preparePersonalMails } from '../mail/personal-mail.js';
import { runSendWorker, type SendEvent } from '../mail/send-run.js';
import { sendSettings } from '../mail/settings.js';
import { createSmtpSender } from '../mail/smtp-sender.js';
import type { SendCounts, SendLogEntry } from '../store/send-log.js';
import { createSubscriberTokens } from './tokens.js';

export type { SendEvent };

export interface SendInput {
  week: string;
  /** Say who would get it; write nothing, send nothing. */
  dryRun?: boolean;
  /** Send even with fallbacks or flagged items. */
  allowFlagged?: boolean;
  /** Queue uncertain rows again (their readers may get the mail twice). */
  resendUncertain?: boolean;
  /** Public base URL for unsubscribe links (default server.baseUrl, then publish.baseUrl). */
  baseUrl?: string;
  onProgress?: (progress: SendProgress) => void;
  /** Every settled mail: for a server's /metrics counters. */
  onEvent?: (event: SendEvent) => void;
}

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

export interface SendOutcome {
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
  /** This run's mails. */
  run: { sent: number; failed: number; skipped: number; bounced: number };
  /** The edition's send log as it stands. */
  counts: SendCounts;
  /** A few of the rows that need a look (first 50 of each). */
  uncertain: SendLogEntry[];
  failed: SendLogEntry[];
  /** Rows another process sharing this send still holds when this one finished. */
  inFlightElsewhere: number;
  /** True when every row is sent or skipped (or held by another process still sending). */
  complete: boolean;
}

export async function send(deps: DigestDeps, input: SendInput): Promise<SendOutcome> {
  const { store, log, config } = deps;
  const edition = await store.getEdition(input.week);
  if (!edition) {
    throw new NotFoundError(
      `No edition for ${input.week}: build it first (digest build --week ${input.week}).`,
    );
  }
  if (!edition.publishedAt) {
    throw new NotFoundError(
      `Edition ${input.week} is not published: publish it first (digest publish --week ${input.week}); ` +
        'the mail links to its page.',
    );
  }
  refuseFlagged(edition, 'send', input.allowFlagged ?? false);
  const settings = sendSettings(config, deps.env, input.baseUrl);
  const base = emptyOutcome(input.week, input.dryRun ?? false);
  if (input.dryRun) {
    const wouldSend = await previewAll(deps, input.week);
    log.info(`Dry run: ${wouldSend.length} reader(s) would get "${edition.title}"; nothing written or sent.`);
    return { ...base, wouldSend, counts: await store.sendCounts(input.week) };
  }
  const tokens = createSubscriberTokens(readSecret(deps.env), () => deps.clock.now().getTime());
  const mail = await preparePersonalMails({
    editions: await editionLanguages(deps, edition, settings.baseUrl),
    from: config.publish.email.from,
    baseUrl: settings.baseUrl,
    now: () => deps.clock.now(),
    ...(settings.send.unsubscribeMailto ? { unsubscribeMailto: settings.send.unsubscribeMailto } : {}),
    ...(await emailImages(deps, edition, settings.baseUrl)),
  });

  const worker = newClaimerId();
  const dead = deadClaimers(await store.sendClaimers(input.week), worker);
  const abandoned = await store.recoverAbandoned(input.week, dead, settings.send.leaseSeconds);
  const foundUncertain = abandoned.uncertain;
  const requeued = input.resendUncertain ? await store.requeueUncertain(input.week) : 0;
  const { added, skipped, retried } = await store.enqueueSend(input.week);
  const before = await store.sendCounts(input.week);
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

  const run = { sent: 0, failed: 0, skipped: 0, bounced: 0 };
  const progress: SendProgress = {
    done: 0,
    total: before.queued + before.retrying,
    sent: 0,
    failed: 0,
    skipped: 0,
    retrying: 0,
  };
  const retrying = new Set<string>();
  const onEvent = (event: SendEvent) => {
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
    input.onEvent?.(event);
    input.onProgress?.({ ...progress });
  };
  const sender = createSmtpSender({ ...settings.smtp, connections: settings.send.concurrency });
  try {
    await runSendWorker({
      store,
      mail,
      sender,
      worker,
      tokensFor: ({ subscriberId, address }) => ({
        unsubscribe: tokens.issue('unsubscribe', { id: String(subscriberId), address }),
        preferences: tokens.issue('preferences', { id: String(subscriberId), address }),
      }),
      recordBounce: async (id) =>
        (await store.recordBounce(id, settings.send.bounceLimit))?.status === 'bounced',
      deadClaimers: dead,
      concurrency: settings.send.concurrency,
      messagesPerSecond: settings.send.messagesPerSecond,
      maxAttempts: settings.send.maxAttempts,
      retryDelayMs: settings.send.retryDelayMs,
      leaseSeconds: settings.send.leaseSeconds,
      onEvent,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } finally {
    sender.close();
  }
  if (mail.variants() > 1) log.info(`${mail.variants()} personal variant(s) of the edition rendered.`);
  // Rows still held when this worker runs out of work belong to another process sharing the send (PostgreSQL).
  // Claimers first, then counts: rows only move towards settled, so a claimer seen first covers every row counted.
  const claimers = await store.sendClaimers(input.week);
  const counts = await store.sendCounts(input.week);
  const elsewhere = counts.queued + counts.sending > 0 && claimers.length > 0;
  const [uncertain, failed] = await Promise.all([
    store.listSendLog(input.week, { states: ['uncertain', 'sending'], limit: 50 }),
    store.listSendLog(input.week, { states: ['failed'], limit: 50 }),
  ]);
  return {
    ...base,
    added,
    foundUncertain,
    requeued,
    run,
    counts,
    uncertain,
    failed,
    inFlightElsewhere: elsewhere ? counts.queued + counts.sending : 0,
    complete: counts.failed + counts.uncertain === 0 && (elsewhere || counts.queued + counts.sending === 0),
  };
}

async function previewAll(deps: DigestDeps, week: string): Promise<string[]> {
  const addresses: string[] = [];
  let afterId = 0;
  for (;;) {
    const page = await deps.store.previewRecipients(week, { afterId, limit: 5000 });
    addresses.push(...page.map((row) => row.address));
    if (page.length < 5000) return addresses;
    afterId = page.at(-1)!.id;
  }
}

/**
 * The edition in each configured language it has a translation for, the written one first. A language without one
 * is left out: its readers get the written language.
 */
async function editionLanguages(
  deps: DigestDeps,
  edition: Edition,
  baseUrl: string,
): Promise<Map<string, LanguageEdition>> {
  const [written, ...others] = deps.config.languages;
  const editions = new Map<string, LanguageEdition>([
    [written ?? 'en', { edition, pageUrl: absoluteUrl(baseUrl, `${edition.date}/`) ?? baseUrl }],
  ]);
  if (others.length === 0) return editions;
  for (const { translation } of await deps.store.getTranslations(edition.date)) {
    if (!others.includes(translation.language)) continue;
    editions.set(translation.language, {
      edition: applyTranslation(edition, translation),
      pageUrl: absoluteUrl(baseUrl, `${translation.language}/${edition.date}/`) ?? baseUrl,
    });
  }
  return editions;
}

/** As `digest email`: images from the published site when enrichment is on, else none. */
async function emailImages(deps: DigestDeps, edition: Edition, baseUrl: string) {
  if (!deps.config.enrich.enabled) return {};
  const { fetchItemImages } = await import('../publish/item-images.js');
  const { images } = await fetchItemImages([edition], { http: deps.http, log: deps.log });
  return baseUrl ? { images } : {};
}

function emptyOutcome(week: string, dryRun: boolean): SendOutcome {
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

/** The send log over every edition, for /metrics (mails sent, failed; bounced readers come from countSubscribers). */
export async function sendLogCounts(deps: DigestDeps): Promise<SendCounts> {
  return deps.store.sendLogCounts();
}
