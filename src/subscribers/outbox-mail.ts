// The outbox's mails: a confirmation (the signed confirm link) or a welcome (the unsubscribe link and RFC 8058
// headers), composed when the worker sends it — the row holds no body and no token — and sent through the one SMTP
// module with the one set of settings (mail/settings.ts).

import { envelopeSender } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import { preferencesUrl } from '../core/reader-choices.js';
import type { DigestDeps } from '../deps.js';
import { listUnsubscribeHeaders, unsubscribeUrl } from '../mail/list-unsubscribe.js';
import { mailTransportSettings } from '../mail/settings.js';
import { createSmtpSender, type MailSender } from '../mail/smtp-sender.js';
import { senderIdentity } from '../publish/sender-identity.js';
import { renderConfirmationMail, renderWelcomeMail } from '../publish/subscriber-mail.js';
import type { OutboxMail } from '../store/outbox.js';
import type { Subscriber } from '../store/subscribers.js';
import type { Store } from '../store/types.js';
import type { Composed } from './outbox-worker.js';
import type { SubscriptionSettings } from './subscription-settings.js';
import { type SubscriberTokens, TOKEN_LIFETIME_MS } from './tokens.js';

export interface OutboxMailDeps extends Pick<DigestDeps, 'config' | 'clock'> {
  store: Pick<Store, 'subscribers'>;
  tokens: SubscriberTokens;
  /** The site's name and base URL; throws when subscribing is not configured. */
  site: () => SubscriptionSettings;
}

/** Composes a claimed mail, or says why it no longer applies (the reader confirmed, left or subscribed anew). */
export function outboxComposer(deps: OutboxMailDeps): (mail: OutboxMail) => Promise<Composed> {
  const from = deps.config.publish.email.from;
  // The address at the end: a display name may hold "<" and ">" itself.
  const envelopeFrom = envelopeSender(from);
  return async (mail) => {
    const subscriber = await deps.store.subscribers.get({ id: mail.subscriberId });
    const wanted = mail.kind === 'confirmation' ? 'pending' : 'confirmed';
    if (!subscriber || subscriber.status !== wanted || subscriber.generation !== mail.generation) {
      return { skip: `the reader is ${subscriber?.status ?? 'gone'} in another subscription or state` };
    }
    const messageIdDomain = new URL(deps.site().baseUrl).hostname;
    return {
      mail: {
        messageId: `<outbox-${mail.id}@${messageIdDomain}>`,
        raw: await renderOutboxMail(deps, mail, subscriber),
        envelope: { from: envelopeFrom, to: [subscriber.address] },
      },
    };
  };
}

async function renderOutboxMail(
  deps: OutboxMailDeps,
  mail: OutboxMail,
  subscriber: Subscriber,
): Promise<string> {
  const { tokens } = deps;
  const { baseUrl, siteName } = deps.site();
  const common = {
    siteName,
    from: deps.config.publish.email.from,
    to: subscriber.address,
    date: deps.clock.now(),
    messageIdDomain: new URL(baseUrl).hostname,
    messageId: `outbox-${mail.id}`,
    siteUrl: baseUrl,
    sender: senderIdentity(deps.config.publish.identity),
  };
  const subject = { id: String(subscriber.id), address: subscriber.address };
  // Signed now, at send time: the outbox row holds no token, so a database reader learns no working link. The
  // preferences and confirm links are bound to the mail's subscription.
  const preferences = preferencesUrl(
    baseUrl,
    tokens.issue('preferences', { ...subject, instance: String(mail.generation) }),
  );
  if (mail.kind === 'confirmation') {
    const confirmUrl = new URL('confirm', baseUrl);
    confirmUrl.searchParams.set(
      'token',
      tokens.issue('confirm', { ...subject, instance: String(mail.generation) }),
    );
    const rendered = await renderConfirmationMail({
      ...common,
      confirmUrl: confirmUrl.href,
      preferencesUrl: preferences,
      validHours: Math.round(TOKEN_LIFETIME_MS.confirm / 3600_000),
    });
    return rendered.raw;
  }
  const token = tokens.issue('unsubscribe', subject);
  const rendered = await renderWelcomeMail({
    ...common,
    unsubscribeUrl: unsubscribeUrl(baseUrl, token),
    preferencesUrl: preferences,
    listUnsubscribe: listUnsubscribeHeaders({ baseUrl, token }),
  });
  return rendered.raw;
}

/** The outbox's SMTP connections (two), made on its first mail: a server nobody subscribes to opens none. */
export function outboxSender(deps: Pick<DigestDeps, 'config' | 'env'>, given?: MailSender): () => MailSender {
  return () => {
    if (given) return given;
    const transport = mailTransportSettings(deps.config, deps.env);
    if (!transport) throw new ConfigError('publish.email.smtp is not set: no mail can be sent.');
    return createSmtpSender({ ...transport, connections: 2 });
  };
}
