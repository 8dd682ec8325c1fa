// What the backup use cases touch: the store's snapshot and load, the cache for the schedule's record of runs,
// the job lock so two instances back up a slot once, and the clock and log.
import type { DigestDeps } from '../deps.js';
import type { Store } from '../store/types.js';

export type BackupDeps = Pick<DigestDeps, 'clock' | 'log'> & { store: Pick<Store, 'backup'> };

export type ScheduledBackupDeps = Pick<DigestDeps, 'clock' | 'log'> & {
  store: Pick<Store, 'backup' | 'cache' | 'jobs'>;
};
