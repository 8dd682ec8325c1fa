// The Store: one group per thing it stores, each group the port its query module declares and returns (or, for
// what the stages use, the port core/ports.ts declares). A use case asks for the groups it needs:
// `Pick<Store, 'editions' | 'sendLog'>`. One implementation over PGlite and PostgreSQL (create-store.ts).

import type { StageStore } from '../core/ports.js';
import type { RateLimitStore } from '../core/rate-limiter.js';
import type { BackupPort } from './backup.js';
import type { ChangesPort } from './changes.js';
import type { ClicksPort } from './clicks.js';
import type { EditorsPort } from './desk-editors.js';
import type { DeskPort } from './desk-edits.js';
import type { IngestRunsPort } from './ingest-runs.js';
import type { JobsPort } from './job-lock.js';
import type { MailOutcomesPort } from './mail-outcomes.js';
import type { OutboxPort } from './outbox.js';
import type { PreferencesPort } from './preferences.js';
import type { ReadersPort } from './readers.js';
import type { RevisionsPort } from './revisions.js';
import type { ScheduledRunsPort } from './scheduled-runs.js';
import type { SearchPort } from './search.js';
import type { SendLogPort } from './send-log.js';
import type { SiteGenerationsPort } from './site-generations.js';
import type { SourceStatePort } from './source-state.js';
import type { SubscribersPort } from './subscribers.js';
import type { TranslationsPort } from './translations.js';

/** Every group: the stages' five (items, editions, decisions, cache, paperTexts; see core/ports.ts) and the rest. */
export interface Store extends StageStore {
  translations: TranslationsPort;
  search: SearchPort;
  sourceState: SourceStatePort;
  ingestRuns: IngestRunsPort;
  subscribers: SubscribersPort;
  /** The operator's list: pages by filter, counts, imports, removal by row (store/readers.ts). */
  readers: ReadersPort;
  preferences: PreferencesPort;
  outbox: OutboxPort;
  sendLog: SendLogPort;
  editors: EditorsPort;
  desk: DeskPort;
  jobs: JobsPort;
  /** Every published revision of an edition, and corrections (store/revisions.ts). */
  revisions: RevisionsPort;
  /** Counted links: click counts per item, and per-reader clicks in that mode (store/clicks.ts). */
  clicks: ClicksPort;
  /** A mark that moves with every write to the store, for "has anything changed since" (store/changes.ts). */
  changes: ChangesPort;
  /** The whole store read in one snapshot, and written back into an empty one (store/backup.ts). */
  backup: BackupPort;
  /** What followed each edition's mail: sent, bounces, unsubscribes (store/mail-outcomes.ts). */
  mailOutcomes: MailOutcomesPort;
  /** Which published site is current, for instances that each write it into their own folder (store/site-generations.ts). */
  siteGenerations: SiteGenerationsPort;
  /** Scheduled jobs run once per slot across the processes on this database (store/scheduled-runs.ts). */
  scheduledRuns: ScheduledRunsPort;
  /**
   * True on PostgreSQL, where several `digest serve` instances may share the database: rate limits are then kept
   * in it and each instance follows the site generations; false on PGlite, which one process holds.
   */
  manyInstances: boolean;
  /** Where rate limits keep their buckets, on `now`'s clock in ms: the database with manyInstances, else memory. */
  rateLimits(now: () => number): RateLimitStore;
  /**
   * PGlite in a data folder: opens it to other digest commands until the store closes (`digest serve`). Null on
   * PostgreSQL, in memory, or when it cannot be shared (the reason is logged).
   */
  shareDatabase(): Promise<SharedDatabase | null>;
  close(): Promise<void>;
}

/** A PGlite data folder shared with other digest commands while this process holds it (see share-pglite.ts). */
export interface SharedDatabase {
  /** The Unix socket other commands connect to. */
  address: string;
  /** Names where the sharing server answers HTTP, for a second server that finds the folder held. */
  announce(serving: string): Promise<void>;
  close(): Promise<void>;
}
