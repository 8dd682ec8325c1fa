// Subscribing and leaving: double opt-in with a signed link, one-click unsubscribe, and the bounce/complaint
// reports of the mail provider. The answers never say whether an address is known. Every mail a request causes is
// an outbox row written in the request's own transaction (store/outbox.ts), delivered by the outbox worker.
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readSecret } from '../config/secret.js';
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import { hasPreferenceFields, parsePreferences, preferencesUrl } from '../core/reader-choices.js';
import type { ReaderPreferences } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from '../mail/list-unsubscribe.js';
import { mailTransportSettings } from '../mail/settings.js';
import { createSmtpSender, type MailSender } from '../mail/smtp-sender.js';
import { renderConfirmationMail, renderWelcomeMail } from '../publish/subscriber-mail.js';
import { TOPIC_NAMES } from '../select/topic-match.js';
import type { OutboxMail } from '../store/outbox.js';
import type { Subscriber } from '../store/subscribers.js';
import { type Composed, createOutboxWorker, type MailHealth, type OutboxEvent } from './outbox-worker.js';
import { type SubscriptionSettings, subscriptionSettings } from './subscription-settings.js';
import { createSubscriberTokens, TOKEN_LIFETIME_MS, type TokenCheck } from './tokens.js';

/** One confirmation mail per inbox (address without +tag) in this window. */
export const CONFIRMATION_WINDOW_SECONDS = 3600;
/** Subscribe requests waiting for the database at most; beyond, the answer is "busy" (503) for everyone. */
const MAX_WAITING_REQUESTS = 10_000;
/** Requests stored per transaction. */
const INTAKE_BATCH = 500;

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

export type ConfirmInfo = { ok: true; address: string; confirmed: boolean } | { ok: false; reason: string };

/** What /healthz says about mail: "degraded" while mails wait for a retry or one was given up lately. */
export interface MailStatus extends MailHealth {
  waiting: number;
  retrying: number;
  oldestWaitingSeconds: number;
}

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
  /** Answers once the request is stored (and its confirmation mail queued in the same transaction). */
  request(input: SubscribeInput): Promise<SubscribeOutcome>;
  /** What the confirm link's page shows (GET): nothing changes. */
  confirmInfo(token: string): Promise<ConfirmInfo>;
  /** The page's button (POST): confirms the subscription the link was issued for. */
  confirm(token: string): Promise<LinkOutcome>;
  unsubscribeInfo(token: string): Promise<UnsubscribeInfo>;
  unsubscribe(token: string): Promise<LinkOutcome>;
  deliveryEvent(body: unknown): Promise<DeliveryEventOutcome>;
  /** True when `authorization` is "Bearer <the secret in server.webhookSecretEnv>" (compared in constant time). */
  authoriseWebhook(authorization: string | undefined): boolean;
  /** Resolves once every request is stored and no mail is due (each was sent, given up or rescheduled). */
  idle(): Promise<void>;
  /** Starts the outbox worker (`digest serve`): mails left by an earlier run go out too. */
  startOutbox(onEvent?: (event: OutboxEvent) => void): void;
  /** Stops the worker after the mails it is sending (the rest wait in the outbox for the next start). */
  stopOutbox(): Promise<void>;
  mailStatus(): Promise<MailStatus>;
}

/** Any value in the honeypot field but an empty one — a string with text, a repeated field, an array — is a bot. */
export function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.some((entry) => entry !== '');
  return typeof value !== 'string' || value.trim() !== '';
}

type TokenSubscriber = Omit<Subscriber, 'id'> & { rowId: number; id: string; instance?: string };

export function createSubscriptions(deps: DigestDeps, options: { sender?: MailSender } = {}): Subscriptions {
  const { config, store, log } = deps;
  const settings = subscriptionSettings(config);
  const tokens = createSubscriberTokens(readSecret(deps.env), () => deps.clock.now().getTime());
  // Requests wait here for the database and are stored in batches, one transaction each: a burst costs a few
  // statements instead of one per reader (PGlite writes on this thread), and each request is answered once its
  // batch is committed — an answered request is a stored one.
  const intake = new Map<string, { mailbox: string; stored: (ok: boolean) => void }>();
  const waiting = new Map<string, Promise<boolean>>();
  /** The form's edition choices of the requests waiting, by address. */
  const choices = new Map<string, ReaderPreferences>();
  let draining: Promise<void> | null = null;
  // An address stored within the hour needs no second visit to the database: its row is pending (and its mail
  // queued) or confirmed, and another request could change neither. Leaving forgets it, so subscribing again works.
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

  const lookup =
    (bound: boolean) =>
    async (id: string): Promise<TokenSubscriber | null> => {
      if (!/^[1-9]\d{0,14}$/.test(id)) return null;
      const row = await store.getSubscriber({ id: Number(id) });
      if (!row) return null;
      // A confirm link names the subscription (generation) it was issued for.
      return {
        ...row,
        id: String(row.id),
        rowId: row.id,
        ...(bound ? { instance: String(row.generation) } : {}),
      };
    };
  const verify = async (
    token: string,
    purpose: 'confirm' | 'unsubscribe',
  ): Promise<TokenCheck<TokenSubscriber>> => {
    if (typeof token !== 'string' || token.length > 300) return { ok: false, reason: 'malformed' };
    const checked = await tokens.verify(token, purpose, lookup(purpose === 'confirm'));
    // A confirm link mailed before links were bound to a subscription (release 0.1) still confirms the first one.
    if (!checked.ok && checked.reason === 'bad-signature' && purpose === 'confirm') {
      const legacy = await tokens.verify(token, purpose, lookup(false));
      if (legacy.ok && legacy.subscriber.generation === 1) return legacy;
    }
    return checked;
  };

  function site(): SubscriptionSettings {
    if (!settings || !config.publish.email.smtp) {
      throw new ConfigError(
        'Subscribing needs publish.email.smtp (to mail the confirmation link) and server.baseUrl or publish.baseUrl.',
        [{ path: settings ? 'publish.email.smtp' : 'server.baseUrl', message: 'required for subscriptions' }],
      );
    }
    return settings;
  }

  const from = config.publish.email.from;
  const envelopeFrom = /<([^>]+)>/.exec(from)?.[1] ?? from;

  async function compose(mail: OutboxMail): Promise<Composed> {
    const subscriber = await store.getSubscriber({ id: mail.subscriberId });
    const wanted = mail.kind === 'confirmation' ? 'pending' : 'confirmed';
    if (!subscriber || subscriber.status !== wanted || subscriber.generation !== mail.generation) {
      return { skip: `the reader is ${subscriber?.status ?? 'gone'} in another subscription or state` };
    }
    const { baseUrl, siteName } = site();
    const common = {
      siteName,
      from,
      to: subscriber.address,
      date: deps.clock.now(),
      messageIdDomain: new URL(baseUrl).hostname,
      messageId: `outbox-${mail.id}`,
      siteUrl: baseUrl,
    };
    const subject = { id: String(subscriber.id), address: subscriber.address };
    // Signed now, at send time: the outbox row holds no token, so a database reader learns no working link.
    const preferences = preferencesUrl(baseUrl, tokens.issue('preferences', subject));
    let raw: string;
    if (mail.kind === 'confirmation') {
      const confirmUrl = new URL('confirm', baseUrl);
      confirmUrl.searchParams.set(
        'token',
        tokens.issue('confirm', { ...subject, instance: String(mail.generation) }),
      );
      raw = (
        await renderConfirmationMail({
          ...common,
          confirmUrl: confirmUrl.href,
          preferencesUrl: preferences,
          validHours: Math.round(TOKEN_LIFETIME_MS.confirm / 3600_000),
        })
      ).raw;
    } else {
      const token = tokens.issue('unsubscribe', subject);
      raw = (
        await renderWelcomeMail({
          ...common,
          unsubscribeUrl: unsubscribeUrl(baseUrl, token),
          preferencesUrl: preferences,
          listUnsubscribe: listUnsubscribeHeaders({ baseUrl, token }),
        })
      ).raw;
    }
    return {
      mail: {
        messageId: `<outbox-${mail.id}@${common.messageIdDomain}>`,
        raw,
        envelope: { from: envelopeFrom, to: [subscriber.address] },
      },
    };
  }

  const outbox = createOutboxWorker({
    store,
    sender: () => {
      if (options.sender) return options.sender;
      const transport = mailTransportSettings(config, deps.env);
      if (!transport) throw new ConfigError('publish.email.smtp is not set: no mail can be sent.');
      return createSmtpSender({ ...transport, connections: 2 });
    },
    compose,
    settings: config.server.outbox,
    log,
    now: () => deps.clock.now().getTime(),
  });

  /** Mails queued by batches since the intake last ran dry. */
  let queuedSinceDrained = 0;

  async function storeBatch(batch: { address: string; mailbox: string }[]): Promise<boolean> {
    try {
      const { subscribers, queued } = await store.requestSubscriptionsWithMail(
        batch,
        CONFIRMATION_WINDOW_SECONDS,
      );
      for (const { address } of batch) remember(address);
      queuedSinceDrained += queued;
      await storeChoices(subscribers);
      return true;
    } catch (error) {
      log.warn(`subscribe: storing ${batch.length} request(s) failed: ${errorText(error)}`);
      return false;
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
          const answers: ((ok: boolean) => void)[] = [];
          for (const [address, entry] of intake) {
            batch.push({ address, mailbox: entry.mailbox });
            answers.push(entry.stored);
            intake.delete(address);
            if (batch.length === INTAKE_BATCH) break;
          }
          const ok = await storeBatch(batch);
          for (const { address } of batch) {
            waiting.delete(address);
            choices.delete(address);
          }
          for (const answer of answers) answer(ok);
        }
      } finally {
        draining = null;
        // The worker starts once the intake has run dry: during a burst, storing (and answering) readers comes
        // first, and the database (PGlite: this thread) is not shared with the mails meanwhile.
        if (queuedSinceDrained > 0) {
          queuedSinceDrained = 0;
          outbox.wake();
        }
      }
    })();
    return draining;
  }

  return {
    async request(input) {
      // A bot fills every field; it gets the same answer as a person and nothing is stored.
      if (honeypotFilled(input.honeypot)) {
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
      site();
      if (storedRecently(checked.address)) return { ok: true };
      // The same address already waiting: one row, one mail, one answer for both.
      let stored = waiting.get(checked.address);
      if (!stored) {
        if (waiting.size >= MAX_WAITING_REQUESTS) return { ok: false, busy: true };
        const mailbox = checked.mailbox;
        stored = new Promise<boolean>((resolve) => intake.set(checked.address, { mailbox, stored: resolve }));
        waiting.set(checked.address, stored);
        if (chosen) choices.set(checked.address, chosen.preferences);
        void drain();
      }
      // Not stored (the database failed): "busy", so the reader tries again instead of waiting for a mail.
      return (await stored) ? { ok: true } : { ok: false, busy: true };
    },

    async confirmInfo(token) {
      const checked = await verify(token, 'confirm');
      if (!checked.ok) return { ok: false, reason: checked.reason };
      const { status, address } = checked.subscriber;
      if (status !== 'pending' && status !== 'confirmed') return { ok: false, reason: 'not-pending' };
      return { ok: true, address, confirmed: status === 'confirmed' };
    },

    async confirm(token) {
      const checked = await verify(token, 'confirm');
      if (!checked.ok) return { ok: false, reason: checked.reason };
      const { rowId, generation } = checked.subscriber;
      const confirmed = await store.confirmSubscription(rowId, generation, config.server.welcomeMail);
      if (confirmed) {
        log.info(`subscriber ${rowId} confirmed`);
        if (config.server.welcomeMail) outbox.wake();
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
      await outbox.idle();
    },

    startOutbox: (onEvent) => outbox.start(onEvent),
    stopOutbox: () => outbox.stop(),

    async mailStatus() {
      const waitingMails = await store.outboxHealth();
      return { ...outbox.health(waitingMails.retrying), ...waitingMails };
    },
  };
}
