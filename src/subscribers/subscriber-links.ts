// The links in readers' mails. Confirm: a GET only shows the page, the page's POST confirms the subscription the link
// was issued for (so link scanners confirm nobody). Unsubscribe: a GET shows the button, a POST (the form or RFC 8058
// one-click) unsubscribes. Tokens are signed, expiring and bound to their purpose (tokens.ts).
import type { DigestDeps } from '../deps.js';
import type { Subscriber } from '../store/subscribers.js';
import type { Store } from '../store/types.js';
import type { SubscriberTokens, TokenCheck } from './tokens.js';

export type LinkOutcome = { ok: true } | { ok: false; reason: string };

export type ConfirmInfo = { ok: true; address: string; confirmed: boolean } | { ok: false; reason: string };

export type UnsubscribeInfo = { ok: true; address: string } | { ok: false; reason: string };

export interface SubscriberLinks {
  /** What the confirm link's page shows (GET): nothing changes. */
  confirmInfo(token: string): Promise<ConfirmInfo>;
  /** The page's button (POST): confirms the subscription the link was issued for. */
  confirm(token: string): Promise<LinkOutcome>;
  unsubscribeInfo(token: string): Promise<UnsubscribeInfo>;
  unsubscribe(token: string): Promise<LinkOutcome>;
}

export interface LinkDeps extends Pick<DigestDeps, 'config' | 'log'> {
  store: Pick<Store, 'subscribers' | 'outbox'>;
  tokens: SubscriberTokens;
  /** A confirmation queued a welcome mail. */
  welcomeQueued: () => void;
  /** The reader of this mailbox left: the intake must not answer from memory. */
  forget: (mailbox: string) => void;
}

type TokenSubscriber = Omit<Subscriber, 'id'> & { rowId: number; id: string; instance?: string };

export function createSubscriberLinks(deps: LinkDeps): SubscriberLinks {
  const { config, store, log } = deps;
  const verify = tokenVerifier(deps);
  return {
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
      const confirmed = await store.outbox.confirmSubscription(rowId, generation, config.server.welcomeMail);
      if (confirmed) {
        log.info(`subscriber ${rowId} confirmed`);
        if (config.server.welcomeMail) deps.welcomeQueued();
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
      const changed = await store.subscribers.setStatus(rowId, 'unsubscribed', ['pending', 'confirmed']);
      if (changed) log.info(`subscriber ${rowId} unsubscribed`);
      deps.forget(checked.subscriber.mailbox);
      // Already unsubscribed (or bounced): the reader's wish holds either way.
      return { ok: true };
    },
  };
}

function tokenVerifier(deps: Pick<LinkDeps, 'store' | 'tokens'>) {
  const lookup =
    (bound: boolean) =>
    async (id: string): Promise<TokenSubscriber | null> => {
      const row = await deps.store.subscribers.get({ id: Number(id) });
      if (!row) return null;
      // A confirm link names the subscription (generation) it was issued for.
      return {
        ...row,
        id: String(row.id),
        rowId: row.id,
        ...(bound ? { instance: String(row.generation) } : {}),
      };
    };
  return async (token: string, purpose: 'confirm' | 'unsubscribe'): Promise<TokenCheck<TokenSubscriber>> => {
    if (typeof token !== 'string' || token.length > 300) return { ok: false, reason: 'malformed' };
    const checked = await deps.tokens.verify(token, purpose, lookup(purpose === 'confirm'));
    // A confirm link mailed before links were bound to a subscription (release 0.1) still confirms the first one.
    if (!checked.ok && checked.reason === 'bad-signature' && purpose === 'confirm') {
      const legacy = await deps.tokens.verify(token, purpose, lookup(false));
      if (legacy.ok && legacy.subscriber.generation === 1) return legacy;
    }
    return checked;
  };
}
