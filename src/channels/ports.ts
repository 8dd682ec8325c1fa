// The narrow ports of the reach capability's channels (chat posts, pushed drafts): the published edition to send, and the
// cache that remembers what already went out so a rerun sends only the rest. The archive's own port is ArchiveDeps
// (archive.ts). The composition root passes the full DigestDeps, which fits.
import type { DigestDeps } from '../deps.js';
import type { Store } from '../store/types.js';

export type ChannelDeps = Pick<DigestDeps, 'config' | 'log' | 'env' | 'http' | 'clock' | 'signal'> & {
  store: Pick<Store, 'editions' | 'cache'>;
};
