// The narrow ports of the subscribers capability: each use case names the parts of the store it reads and writes, so its
// signature says what it touches. The composition root passes the full DigestDeps, which fits each of them.
import type { DigestDeps } from '../deps.js';
import type { Store } from '../store/types.js';

/** The operator's list (add, import, remove, export) and one reader's data: the subscribers table only. */
export interface ReadersDeps {
  store: Pick<Store, 'subscribers' | 'preferences' | 'readers'>;
}

/** Adding and importing: the list, and the config that says whether a confirmation mail can go out. */
export type AddReadersDeps = ReadersDeps & Pick<DigestDeps, 'config'>;

/** `digest subscribers list`: the list, with each reader's latest mail from the outbox. */
export interface ListReadersDeps {
  store: Pick<Store, 'subscribers' | 'preferences' | 'readers' | 'outbox'>;
}

/** What a reader's signed links need besides the store: the secret (env) and the time. */
type LinkPorts = Pick<DigestDeps, 'config' | 'log' | 'env' | 'clock'>;

/** A reader's preferences page behind the link of every mail, with their switch for counted clicks. */
export type PreferencesDeps = LinkPorts & { store: Pick<Store, 'subscribers' | 'preferences' | 'clicks'> };

/** Subscribe, confirm, unsubscribe, the provider's webhook, and the outbox of confirmation and welcome mails. */
export type SubscriptionDeps = LinkPorts & { store: Pick<Store, 'subscribers' | 'preferences' | 'outbox'> };

/** `digest send`: the published edition and its translations, the send log, and readers' bounces. */
export type SendDeps = LinkPorts &
  Pick<DigestDeps, 'http' | 'signal'> & {
    store: Pick<Store, 'editions' | 'translations' | 'subscribers' | 'sendLog'>;
  };
