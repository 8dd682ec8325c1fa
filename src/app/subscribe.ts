// Subscribing and leaving: double opt-in with a signed link, one-click unsubscribe, and the bounce/complaint
// reports of the mail provider. The answers never say whether an address is known.
import { createHash, timingSafeEqual } from 'node:crypto';
import PQueue from 'p-queue';
import { z } from 'zod';
import { readSecret } from '../config/secret.js';
import { ConfigError } from '../core/errors.js';
import type { ReaderPreferences } from '../core/types.js';
import { createSmtpMailer, type Mailer } from '../publish/email-message.js';
import { renderConfirmationMail, renderWelcomeMail } from '../publish/subscriber-mail.js';
import { TOPIC_NAMES } from '../select/topic-match.js';
import type { Subscriber } from '../store/subscribers.js';
import { ADDRESS_PROBLEMS, normaliseAddress } from '../subscribers/address.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from '../subscribers/list-unsubscribe.js';
import { hasPreferenceFields, parsePreferences } from '../subscribers/preferences.js';
import { createSubscriberTokens, TOKEN_LIFETIME_MS, type TokenCheck } from '../subscribers/tokens.js';
import type { DigestDeps } from './deps.js';
import { type SubscriptionSettings, subscriptionSettings } from './subscription-settings.js';

/** One confirmation mail per inbox (address without +tag) in this window. */
export const CONFIRMATION_WINDOW_SECONDS = 3600;
/** Mails waiting for SMTP at most; beyond, a request is answered the same but no mail is claimed or queued. */
const MAX_QUEUED_MAILS = 500;
/** Accepted subscribe requests waiting for the database at most; beyond, the answer is "busy" (503) for everyone. */
const MAX_WAITING_REQUESTS = 10_000;
/** Requests stored per statement. */
const INTAKE_BATCH = 500;
/** Confirmation claims (one statement each) between two yields to pending I/O. */
const CLAIMS_BETWEEN_YIELDS = 20;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Addresses this process stored within the confirmation window, at most (the least recent are forgotten first). */
const MAX_RECENT_ADDRESSES = 100_000;
const MIN_WEBHOOK_SECRET_LENGTH = 16;

export interface SubscribeInput {
  email: unknown;
  /** The honeypot field: a person leaves it empty. */
  honeypot?: unknown;
  /** The client address (for the log line only; the per-IP limit is the route's). */
  ip: string;
  /** The form's edition choices (language, topics, levels), kept for a new or pending reader only. */
  preferences?: Record<string, unknown>;
}

export type SubscribeOutcome =
  | { ok: true }
  | { ok: false; field: 'email' | 'language' | 'topics' | 'levels' | 'onlyMyTopics'; message: string }
  /** Too many requests are waiting for the database: try again later (the same for every address). */
  | { ok: false; busy: true };

export type LinkOutcome = { ok: true } | { ok: false; reason: string };

export type UnsubscribeInfo = { ok: true; address: string } | { ok: false; reason: string };

export const deliveryEventSchema = z
  .object({
    email: z.string().max(1000),
    type: z.enum(['bounce', 'complaint']),
    /** A hard bounce (5xx: no such mailbox). Default: temporary. */
    permanent: z.boolean().optional(),
  })
  .strip();

export type DeliveryEventOutcome =
  | { ok: true; matched: false }
  | { ok: true; matched: true; status: Subscriber['status']; bounces: number }
  | { ok: false; field: string; message: string };

export interface Subscriptions {
  request(input: SubscribeInput): Promise<SubscribeOutcome>;
  confirm(token: string): Promise<LinkOutcome>;
  unsubscribeInfo(token: string): Promise<UnsubscribeInfo>;
  unsubscribe(token: string): Promise<LinkOutcome>;
  deliveryEvent(body: unknown): Promise<DeliveryEventOutcome>;
  /** True when `authorization` is "Bearer <the secret in server.webhookSecretEnv>" (compared in constant time). */
  authoriseWebhook(authorization: string | undefined): boolean;
  /** Resolves once every mail queued so far was handed to SMTP or failed (tests, shutdown). */
  idle(): Promise<void>;
}

type TokenSubscriber = Omit<Subscriber, 'id'> & { id: string; rowId: number };

export function createSubscriptions(deps: DigestDeps, options: { mailer?: Mailer } = {}): Subscriptions {
  const { config, store, log } = deps;
  const settings = subscriptionSettings(config);
  const tokens = createSubscriberTokens(readSecret(deps.env), () => deps.clock.now().getTime());
  const queue = new PQueue({ concurrency: 4 });
  // Accepted requests are stored after the answer: the answer (and its timing) is the same for every address, and a
  // burst waits here instead of holding 100 connections on a database that writes on this thread (PGlite). What
  // waits is stored in batches, one statement each, yielding to pending I/O in between.
  const intake = new Map<string, string>();
  const choices = new Map<string, ReaderPreferences>();
  const waiting = new Set<string>();
  let draining: Promise<void> | null = null;
  // An address stored within the hour needs no second visit to the database: its row is pending (and its mail
  // claimed) or confirmed, and another request could change neither. Leaving forgets it, so subscribing again works.
  const recent = new Map<string, number>();
  const windowMs = CONFIRMATION_WINDOW_SECONDS * 1000;
  const storedRecently = (address: string) => {
    const at = recent.get(address);
    return at !== undefined && deps.clock.now().getTime() - at < windowMs;
  };
  const remember = (address: string) => {
    recent.delete(address);
    recent.set(address, deps.clock.now().getTime());
    while (recent.size > MAX_RECENT_ADDRESSES) recent.delete(recent.keys().next().value!);
  };
  let mailer = options.mailer;

  const lookup = async (id: string): Promise<TokenSubscriber | null> => {
    if (!/^[1-9]\d{0,14}$/.test(id)) return null;
    const row = await store.getSubscriber({ id: Number(id) });
    return row ? { ...row, id: String(row.id), rowId: row.id } : null;
  };
  const verify = (token: string, purpose: 'confirm' | 'unsubscribe'): Promise<TokenCheck<TokenSubscriber>> =>
    typeof token === 'string' && token.length <= 300
      ? tokens.verify(token, purpose, lookup)
      : Promise.resolve({ ok: false, reason: 'malformed' });

  function mailSettings(): {
    site: SubscriptionSettings;
    mailer: Mailer;
    from: string;
    envelopeFrom: string;
  } {
    const smtp = config.publish.email.smtp;
    if (!settings || !smtp) {
      throw new ConfigError(
        'Subscribing needs publish.email.smtp (to mail the confirmation link) and server.baseUrl or publish.baseUrl.',
        [{ path: settings ? 'publish.email.smtp' : 'server.baseUrl', message: 'required for subscriptions' }],
      );
    }
    mailer ??= createSmtpMailer({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      requireTls: smtp.requireTls,
      ...(smtp.user ? { user: smtp.user, password: deps.env[smtp.passwordEnv] ?? '' } : {}),
    });
    const from = config.publish.email.from;
    return { site: settings, mailer, from, envelopeFrom: /<([^>]+)>/.exec(from)?.[1] ?? from };
  }

  /** Sends after the answer has gone: the response time says nothing about the address, and SMTP cannot slow it. */
  function enqueue(what: string, subscriber: Subscriber, compose: () => Promise<string>): void {
    const { mailer: transport, envelopeFrom } = mailSettings();
    void queue
      .add(async () => {
        const raw = await compose();
        await transport.sendMail({ envelope: { from: envelopeFrom, to: [subscriber.address] }, raw });
        log.info(`sent the ${what} mail to subscriber ${subscriber.id}`);
      })
      .catch((error: unknown) =>
        log.warn(
          `the ${what} mail to subscriber ${subscriber.id} failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  function sendConfirmation(subscriber: Subscriber): void {
    const { site, from } = mailSettings();
    const token = tokens.issue('confirm', { id: String(subscriber.id), address: subscriber.address });
    const confirmUrl = new URL('confirm', site.baseUrl);
    confirmUrl.searchParams.set('token', token);
    enqueue('confirmation', subscriber, async () => {
      const mail = await renderConfirmationMail({
        siteName: site.siteName,
        from,
        to: subscriber.address,
        date: deps.clock.now(),
        messageIdDomain: new URL(site.baseUrl).hostname,
        confirmUrl: confirmUrl.href,
        siteUrl: site.baseUrl,
        validHours: Math.round(TOKEN_LIFETIME_MS.confirm / 3600_000),
      });
      return mail.raw;
    });
  }

  function sendWelcome(subscriber: Subscriber): void {
    const { site, from } = mailSettings();
    const token = tokens.issue('unsubscribe', { id: String(subscriber.id), address: subscriber.address });
    enqueue('welcome', subscriber, async () => {
      const mail = await renderWelcomeMail({
        siteName: site.siteName,
        from,
        to: subscriber.address,
        date: deps.clock.now(),
        messageIdDomain: new URL(site.baseUrl).hostname,
        siteUrl: site.baseUrl,
        unsubscribeUrl: unsubscribeUrl(site.baseUrl, token),
        listUnsubscribe: listUnsubscribeHeaders({ baseUrl: site.baseUrl, token }),
      });
      return mail.raw;
    });
  }

  /** Confirmation mails not claimed because the queue was full, since the last warning. */
  let unclaimed = 0;

  /** Remembers a stored request and claims a pending reader's confirmation mail; true when that took a statement. */
  async function afterStored(subscriber: Subscriber): Promise<boolean> {
    remember(subscriber.address);
    // Confirmed readers get nothing new; pending ones one mail per inbox per hour, whatever the +tag.
    if (subscriber.status !== 'pending') return false;
    if (queue.size + queue.pending >= MAX_QUEUED_MAILS) {
      // Said once per burst, with the count, not once per reader.
      if (unclaimed++ === 0) {
        void queue.onSizeLessThan(MAX_QUEUED_MAILS / 2).then(() => {
          log.warn(`subscribe: the mail queue was full; ${unclaimed} confirmation mail(s) not claimed`);
          unclaimed = 0;
        });
      }
      return false;
    }
    if (await store.claimConfirmationMail(subscriber.id, CONFIRMATION_WINDOW_SECONDS)) {
      sendConfirmation(subscriber);
    }
    return true;
  }

  async function storeBatch(batch: { address: string; mailbox: string }[]): Promise<void> {
    let stored: Subscriber[];
    try {
      stored = await store.requestSubscriptions(batch);
    } catch (error) {
      log.warn(`subscribe: storing ${batch.length} request(s) failed: ${errorText(error)}`);
      return;
    }
    await storeChoices(stored);
    let claims = 0;
    for (const subscriber of stored) {
      const claimed = await afterStored(subscriber).catch((error: unknown) => {
        log.warn(
          `subscribe: claiming the confirmation mail of subscriber ${subscriber.id} failed: ${errorText(error)}`,
        );
        return true;
      });
      if (claimed && ++claims % CLAIMS_BETWEEN_YIELDS === 0) await yieldToIo();
    }
  }

  /** A form's choices count for a reader not yet confirmed: a stranger cannot change a confirmed reader's edition. */
  async function storeChoices(stored: Subscriber[]): Promise<void> {
    for (const subscriber of stored) {
      const chosen = choices.get(subscriber.address);
      choices.delete(subscriber.address);
      if (!chosen || subscriber.status !== 'pending') continue;
      await store
        .setPreferences(subscriber.id, chosen)
        .catch((error: unknown) =>
          log.warn(
            `subscribe: storing the choices of subscriber ${subscriber.id} failed: ${errorText(error)}`,
          ),
        );
    }
  }

  function drain(): Promise<void> {
    draining ??= (async () => {
      try {
        while (intake.size > 0) {
          // PGlite runs on this thread: answers to other readers go out between batches.
          await yieldToIo();
          // The oldest requests first, without copying the whole backlog each turn.
          const batch: { address: string; mailbox: string }[] = [];
          for (const [address, mailbox] of intake) {
            batch.push({ address, mailbox });
            intake.delete(address);
            if (batch.length === INTAKE_BATCH) break;
          }
          try {
            await storeBatch(batch);
          } finally {
            for (const { address } of batch) {
              waiting.delete(address);
              choices.delete(address);
            }
          }
        }
      } finally {
        draining = null;
      }
    })();
    return draining;
  }

  return {
    async request(input) {
      // A bot fills every field; it gets the same answer as a person and nothing is stored.
      if (typeof input.honeypot === 'string' && input.honeypot.trim() !== '') {
        log.info(`subscribe: honeypot filled (client ${input.ip}); ignored`);
        return { ok: true };
      }
      const checked = normaliseAddress(typeof input.email === 'string' ? input.email : '');
      if (!checked.ok) return { ok: false, field: 'email', message: ADDRESS_PROBLEMS[checked.problem] };
      const chosen =
        input.preferences && hasPreferenceFields(input.preferences)
          ? parsePreferences(input.preferences, { languages: config.languages, topics: TOPIC_NAMES })
          : null;
      if (chosen && !chosen.ok) return chosen;
      mailSettings();
      // The same address already waiting or just stored: one row, one mail either way.
      if (waiting.has(checked.address) || storedRecently(checked.address)) return { ok: true };
      if (waiting.size >= MAX_WAITING_REQUESTS) return { ok: false, busy: true };
      waiting.add(checked.address);
      intake.set(checked.address, checked.mailbox);
      if (chosen) choices.set(checked.address, chosen.preferences);
      void drain();
      return { ok: true };
    },

    async confirm(token) {
      const checked = await verify(token, 'confirm');
      if (!checked.ok) return { ok: false, reason: checked.reason };
      const { rowId } = checked.subscriber;
      const confirmed = await store.setSubscriberStatus(rowId, 'confirmed', ['pending']);
      if (confirmed) {
        log.info(`subscriber ${rowId} confirmed`);
        if (config.server.welcomeMail) sendWelcome(confirmed);
        return { ok: true };
      }
      // A second click on the same link: still confirmed, nothing to do. An unsubscribed reader stays so.
      return checked.subscriber.status === 'confirmed' ? { ok: true } : { ok: false, reason: 'not-pending' };
    },

    async unsubscribeInfo(token) {
      const checked = await verify(token, 'unsubscribe');
      return checked.ok ? { ok: true, address: checked.subscriber.address } : checked;
    },

    async unsubscribe(token) {
      const checked = await verify(token, 'unsubscribe');
      if (!checked.ok) return checked;
      const { rowId } = checked.subscriber;
      const changed = await store.setSubscriberStatus(rowId, 'unsubscribed', ['pending', 'confirmed']);
      if (changed) log.info(`subscriber ${rowId} unsubscribed`);
      recent.delete(checked.subscriber.address);
      // Already unsubscribed (or bounced): the reader's wish holds either way.
      return { ok: true };
    },

    async deliveryEvent(body) {
      const parsed = deliveryEventSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return {
          ok: false,
          field: issue?.path.join('.') || 'body',
          message: issue?.message ?? 'expected {email, type}',
        };
      }
      const checked = normaliseAddress(parsed.data.email);
      if (!checked.ok) return { ok: false, field: 'email', message: ADDRESS_PROBLEMS[checked.problem] };
      const subscriber = await store.getSubscriber({ address: checked.address });
      if (!subscriber) return { ok: true, matched: false };
      const { type, permanent } = parsed.data;
      const after =
        type === 'complaint'
          ? ((await store.setSubscriberStatus(subscriber.id, 'unsubscribed', ['pending', 'confirmed'])) ??
            subscriber)
          : await store.recordBounce(subscriber.id, permanent ? 1 : config.server.softBounceLimit);
      const now = after ?? subscriber;
      recent.delete(subscriber.address);
      log.info(
        `subscriber ${subscriber.id}: ${permanent ? 'permanent ' : ''}${type} reported; now ${now.status}`,
      );
      return { ok: true, matched: true, status: now.status, bounces: now.bounces };
    },

    authoriseWebhook(authorization) {
      const secret = deps.env[config.server.webhookSecretEnv];
      if (!secret || secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
        log.warn(
          `POST /webhooks/bounce refused: set ${config.server.webhookSecretEnv} (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters) to accept reports`,
        );
        return false;
      }
      const given = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
      // Equal-length digests, so the comparison takes the same time whatever was sent.
      const digest = (value: string) => createHash('sha256').update(value).digest();
      return timingSafeEqual(digest(given), digest(secret));
    },

    async idle() {
      while (draining) await draining;
      await queue.onIdle();
    },
  };
}
