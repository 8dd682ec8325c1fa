// Subscribing and leaving: double opt-in with a signed link, one-click unsubscribe, and the bounce/complaint
// reports of the mail provider. The answers never say whether an address is known. Every mail a request causes is
// an outbox row written in the request's own transaction (store/outbox.ts), delivered by the outbox worker.
// The parts: intake.ts (requests stored in batches), subscriber-links.ts (confirm and unsubscribe links),
// delivery-events.ts (the provider's webhook), outbox-mail.ts + outbox-worker.ts (the mails). This file joins them.
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import { hasPreferenceFields, parsePreferences } from '../core/reader-choices.js';
import type { DigestDeps } from '../deps.js';
import type { MailSender } from '../mail/smtp-sender.js';
import { TOPIC_NAMES } from '../select/topic-match.js';
import { createDeliveryEvents, type DeliveryEvents } from './delivery-events.js';
import { createIntake, type Intake } from './intake.js';
import { outboxComposer, outboxSender } from './outbox-mail.js';
import { createOutboxWorker, type MailHealth, type OutboxEvent } from './outbox-worker.js';
import type { SubscriptionDeps } from './ports.js';
import { createSubscriberLinks, type SubscriberLinks } from './subscriber-links.js';
import { type SubscriptionSettings, subscriptionSettings } from './subscription-settings.js';
import { digestTokens } from './tokens.js';

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

/** What /healthz says about mail: "degraded" while mails wait for a retry or one was given up lately. */
export interface MailStatus extends MailHealth {
  waiting: number;
  retrying: number;
  oldestWaitingSeconds: number;
}

export interface Subscriptions extends SubscriberLinks, DeliveryEvents {
  /** Answers once the request is stored (and its confirmation mail queued in the same transaction). */
  request(input: SubscribeInput): Promise<SubscribeOutcome>;
  /** Resolves once every request is stored and no mail is due (each was sent, given up or rescheduled). */
  idle(): Promise<void>;
  /** Starts the outbox worker (`digest serve`): mails left by an earlier run go out too. */
  startOutbox(onEvent?: (event: OutboxEvent) => void): void;
  /** Stops the worker after the mails it is sending (the rest wait in the outbox for the next start). */
  stopOutbox(): Promise<void>;
  /** Mails were queued elsewhere in this process (the desk's add or import): the worker looks now, not at its poll. */
  wakeOutbox(): void;
  mailStatus(): Promise<MailStatus>;
}

/**
 * An accepted subscribe request is answered no sooner than this after it arrived, whatever became of it (a new
 * reader stored and mailed, a known one left as is, one remembered within the hour, a bot's): the answer's time
 * does not tell a stranger which. Storing a batch usually takes
 * less; when the database is slower, every request of the batch waits for the same commit.
 */
export const SUBSCRIBE_ANSWER_FLOOR_MS = 20;

/** Any value in the honeypot field but an empty one — a string with text, a repeated field, an array — is a bot. */
export function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.some((entry) => entry !== '');
  return typeof value !== 'string' || value.trim() !== '';
}

export function createSubscriptions(
  deps: SubscriptionDeps,
  options: { sender?: MailSender } = {},
): Subscriptions {
  const { config, store, log } = deps;
  const site = subscriptionSite(deps.config);
  const tokens = digestTokens(deps);
  const now = () => deps.clock.now().getTime();
  const outbox = createOutboxWorker({
    store,
    sender: outboxSender(deps, options.sender),
    compose: outboxComposer({ config, store, clock: deps.clock, tokens, site }),
    settings: {
      ...config.server.outbox,
      messagesPerSecond:
        config.server.outbox.messagesPerSecond ?? config.publish.email.send.messagesPerSecond,
    },
    log,
    now,
  });
  const intake = createIntake({ store, log, now, mailsQueued: () => outbox.wake() });
  const forget = (mailbox: string) => intake.forget(mailbox);
  return {
    request: (input) => withFloor(() => request({ deps, site, intake }, input)),
    ...createSubscriberLinks({ config, store, log, tokens, forget, welcomeQueued: () => outbox.wake() }),
    ...createDeliveryEvents(deps, forget),
    async idle() {
      await intake.idle();
      await outbox.idle();
    },
    startOutbox: (onEvent) => outbox.start(onEvent),
    stopOutbox: () => outbox.stop(),
    wakeOutbox: () => outbox.wake(),
    async mailStatus() {
      const waitingMails = await store.outbox.health();
      return { ...outbox.health(waitingMails.retrying), ...waitingMails };
    },
  };
}

/** The outcome, once SUBSCRIBE_ANSWER_FLOOR_MS have passed since the request arrived (an invalid address: at once). */
async function withFloor(outcome: () => Promise<SubscribeOutcome>): Promise<SubscribeOutcome> {
  const arrived = performance.now();
  const result = await outcome();
  if (!result.ok && 'field' in result) return result;
  const left = SUBSCRIBE_ANSWER_FLOOR_MS - (performance.now() - arrived);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return result;
}

/** The site a subscription is for; without SMTP or a base URL, a ConfigError naming what to set. */
function subscriptionSite(config: DigestDeps['config']): () => SubscriptionSettings {
  const settings = subscriptionSettings(config);
  return () => {
    if (!settings || !config.publish.email.smtp) {
      throw new ConfigError(
        'Subscribing needs publish.email.smtp (to mail the confirmation link) and server.baseUrl or publish.baseUrl.',
        [{ path: settings ? 'publish.email.smtp' : 'server.baseUrl', message: 'required for subscriptions' }],
      );
    }
    return settings;
  };
}

async function request(
  parts: { deps: Pick<DigestDeps, 'config' | 'log'>; site: () => SubscriptionSettings; intake: Intake },
  input: SubscribeInput,
): Promise<SubscribeOutcome> {
  const { config, log } = parts.deps;
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
  parts.site();
  const { address, mailbox } = checked;
  const stored = await parts.intake.submit({ address, mailbox, preferences: chosen?.preferences ?? null });
  // Not stored (busy, or the database failed): "busy", so the reader tries again instead of waiting for a mail.
  return stored ? { ok: true } : { ok: false, busy: true };
}
