// The Store over a Kysely database: each group is the port its query module returns for this database.
import type { Kysely } from 'kysely';
import type { Logger } from '../core/ports.js';
import { memoryRateLimitStore } from '../core/rate-limiter.js';
import { backupStore } from './backup.js';
import { cacheStore } from './cache.js';
import { changesStore } from './changes.js';
import { clicksStore } from './clicks.js';
import { decisionsStore } from './decisions.js';
import { editorsStore } from './desk-editors.js';
import { deskStore } from './desk-edits.js';
import { editionsStore } from './editions.js';
import { ingestRunsStore } from './ingest-runs.js';
import { itemsStore } from './items.js';
import { type JobLockKind, jobsStore } from './job-lock.js';
import { mailOutcomesStore } from './mail-outcomes.js';
import { outboxStore } from './outbox.js';
import { paperTextsStore } from './paper-texts.js';
import { preferencesStore } from './preferences.js';
import { databaseRateLimitStore } from './rate-limits.js';
import { readersStore } from './readers.js';
import { revisionsStore } from './revisions.js';
import { scheduledRunsStore } from './scheduled-runs.js';
import type { Database } from './schema.js';
import { searchStore } from './search.js';
import { sendLogStore } from './send-log.js';
import { siteGenerationsStore } from './site-generations.js';
import { sourceStateStore } from './source-state.js';
import { subscribersStore } from './subscribers.js';
import { translationsStore } from './translations.js';
import type { SharedDatabase, Store } from './types.js';

export interface CreateStoreOptions {
  log?: Logger | undefined;
  onClose?: () => Promise<void>;
  /** How `jobs.withLock` keeps a job to one process (default: an advisory lock). */
  jobLock?: JobLockKind;
  /** An in-process PGlite (one session, taken per statement) or a pool of connections (default). */
  session?: 'embedded' | 'pool';
  /** Starts sharing the database with other commands (PGlite in a data folder only). */
  share?: () => Promise<SharedDatabase | null>;
}

export function createStore(db: Kysely<Database>, options: CreateStoreOptions = {}): Store {
  let shared: Promise<SharedDatabase | null> | null = null;
  const manyInstances = (options.jobLock ?? 'advisory') === 'advisory';
  return {
    items: itemsStore(db, options.log),
    editions: editionsStore(db),
    decisions: decisionsStore(db),
    translations: translationsStore(db),
    search: searchStore(db),
    cache: cacheStore(db),
    paperTexts: paperTextsStore(db),
    sourceState: sourceStateStore(db),
    ingestRuns: ingestRunsStore(db),
    subscribers: subscribersStore(db),
    readers: readersStore(db),
    preferences: preferencesStore(db),
    outbox: outboxStore(db),
    sendLog: sendLogStore(db),
    editors: editorsStore(db),
    desk: deskStore(db),
    revisions: revisionsStore(db),
    clicks: clicksStore(db),
    changes: changesStore(db),
    mailOutcomes: mailOutcomesStore(db),
    jobs: jobsStore(db, options.jobLock ?? 'advisory'),
    siteGenerations: siteGenerationsStore(db),
    scheduledRuns: scheduledRunsStore(db),
    manyInstances,
    // One process holds a PGlite database: its limits stay in memory, where they cost no query.
    rateLimits: (now) => (manyInstances ? databaseRateLimitStore(db, now) : memoryRateLimitStore(now)),
    backup: backupStore(db, options.session ?? 'pool'),
    shareDatabase() {
      shared ??= options.share ? options.share() : Promise.resolve(null);
      return shared;
    },
    async close() {
      try {
        // Other commands first, so nothing reaches the database while it closes.
        await (await shared?.catch(() => null))?.close();
        await db.destroy();
      } finally {
        await options.onClose?.();
      }
    },
  };
}
