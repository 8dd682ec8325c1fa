// The database schema as TypeScript types — the one place the columns are written down outside the migrations
// (which are history: a new column is a new migration plus a change here). Kysely checks every query against it.
// Both drivers are configured alike (see database.ts): `date` reads as 'YYYY-MM-DD' text, `timestamptz` as Date,
// `jsonb` as parsed JSON; jsonb is written as JSON text (see json() in _values.ts).
import type { ColumnType, Generated } from 'kysely';
import type { SourceState } from '../core/ports.js';
import type { ItemSourceRef, PaperText, SourceReport } from '../core/types.js';

/** A timestamptz: read as Date, written as an ISO string (or Date). */
type Timestamp = ColumnType<Date, string | Date, string | Date>;
type DefaultTimestamp = ColumnType<Date, string | Date | undefined, string | Date>;
/** A jsonb column holding T: read parsed, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export interface ItemsTable {
  key: string;
  canonical_url: string;
  arxiv_id: string | null;
  url: string;
  title: string;
  text: string;
  authors: Json<string[]>;
  image: string | null;
  published_at: Timestamp;
  upvotes: number | null;
  citations: number | null;
  primary_source: string;
  sources: Json<ItemSourceRef[]>;
  manual_week: string | null;
  manual_note: string | null;
  first_seen_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SourceStateTable {
  source_id: string;
  state: Json<SourceState>;
  updated_at: DefaultTimestamp;
}

export interface EditionsTable {
  date: string;
  name: string;
  title: string;
  item_count: number;
  /** The Edition without publishedAt (that is the column below). */
  body: Json<unknown>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  published_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

export interface EditionItemsTable {
  date: string;
  key: string;
  position: number;
}

export interface DecisionsTable {
  week: string;
  item_key: string;
  decision: 'pin' | 'skip';
  decided_at: DefaultTimestamp;
  /** The editor's e-mail address (migration 003); null for decisions made with the CLI. */
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CacheTable {
  namespace: string;
  key: string;
  value: Json<unknown>;
  expires_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  created_at: DefaultTimestamp;
}

export interface IngestRunsTable {
  id: Generated<number>;
  started_at: Timestamp;
  finished_at: Timestamp;
  sources: Json<SourceReport[]>;
}

export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed' | 'bounced';

export interface SubscribersTable {
  id: Generated<number>;
  address: string;
  mailbox: string;
  status: SubscriberStatus;
  bounces: ColumnType<number, number | undefined, number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  confirmed_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  unsubscribed_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  confirmation_sent_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  /** Counts this address's subscriptions (migration 007): a confirm link is bound to one. */
  generation: ColumnType<number, number | undefined, number>;
  /** When the reader last complained (migration 014); a complaint that unsubscribed them has unsubscribed_at's time. */
  complained_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  /** Who asserted the reader's consent when they were added confirmed without a confirmation link (migration 016). */
  consent_by: ColumnType<string | null, string | null | undefined, string | null>;
  consent_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
}

/** One change of a reader's status, how it happened and when (migration 019); deleted with the reader. */
export interface ReaderStatusEventsTable {
  id: Generated<number>;
  subscriber_id: number;
  status: SubscriberStatus;
  how: string;
  at: DefaultTimestamp;
}

export type OutboxKind = 'confirmation' | 'welcome';
export type OutboxState = 'queued' | 'sending' | 'sent' | 'failed' | 'uncertain' | 'skipped';

/** A mail a request caused, delivered by the worker of `digest serve` (migration 007). */
export interface OutboxTable {
  id: Generated<number>;
  kind: OutboxKind;
  subscriber_id: number;
  generation: number;
  state: ColumnType<OutboxState, OutboxState | undefined, OutboxState>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: DefaultTimestamp;
  claimed_by: string | null;
  claimed_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  handed_over_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  failure: ColumnType<'temporary' | 'permanent' | null, 'temporary' | 'permanent' | null | undefined>;
  last_error: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** What a reader chose (migration 009); no row: the whole edition in its first language. */
export interface SubscriberPreferencesTable {
  subscriber_id: number;
  language: string | null;
  topics: Json<string[]>;
  levels: Json<string[]>;
  only_my_topics: boolean;
  /** Per-reader click counting on for this reader (migration 012); they may turn it off. */
  count_my_clicks: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: DefaultTimestamp;
}

/** One edition in another language (migration 009): the model's text and the editor's edits, kept apart. */
/** Every published revision of an edition, whole (migration 011); revision 1 is the first publication. */
export interface EditionRevisionsTable {
  edition_date: string;
  revision: number;
  /** The Edition without publishedAt, as readers had it. */
  body: Json<unknown>;
  editor: string | null;
  reason: string | null;
  published_at: Timestamp;
  created_at: DefaultTimestamp;
}

/** Click counts per (edition, revision, item, channel, day) naming no reader (migration 012). */
export interface LinkClicksTable {
  edition_date: string;
  revision: number;
  item_key: string;
  channel: 'mail' | 'site';
  day: string;
  clicks: number;
  prefetched: number;
}

/** Per-reader mode only: which reader clicked which item, first click kept (migration 012). */
export interface ReaderClicksTable {
  edition_date: string;
  revision: number;
  item_key: string;
  channel: 'mail' | 'site';
  subscriber_id: number;
  clicked_at: Timestamp;
}

export interface EditionTranslationsTable {
  edition_date: string;
  language: string;
  generated: Json<unknown>;
  edited: ColumnType<unknown, string | null | undefined, string | null>;
  warnings: Json<string[]>;
  writer: string;
  updated_at: DefaultTimestamp;
}

export type SendState = 'queued' | 'sending' | 'sent' | 'failed' | 'uncertain' | 'skipped';

export interface SendLogTable {
  edition_date: string;
  subscriber_id: number;
  state: SendState;
  attempts: ColumnType<number, number | undefined, number>;
  smtp_response: string | null;
  message_id: string | null;
  claimed_by: string | null;
  claimed_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  next_attempt_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  /** Why a failed row failed (migration 005): temporary ones are tried again by the next run. */
  failure: ColumnType<'temporary' | 'permanent' | null, 'temporary' | 'permanent' | null | undefined>;
  /** When the mail's terminating dot was released to the server (migration 006); null until then. */
  handed_over_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  /** The revision of the edition the mail carried, or the notice announced (migration 013). */
  revision: ColumnType<number, number | undefined, number>;
  /** 0: the edition itself; N ≥ 2: the correction notice of revision N (migration 013). */
  notice: ColumnType<number, number | undefined, number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** One item of a published edition, for full-text search (migration 004); `document` is generated by the database. */
export interface SearchItemsTable {
  edition_date: string;
  position: number;
  item_key: string;
  title: string;
  url: string;
  level: string;
  source: string;
  sources: Json<string[]>;
  authors: Json<string[]>;
  summary: string;
  takeaways: Json<string[]>;
  item_published_at: string;
  document: ColumnType<string, never, never>;
}

export interface EditorsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: DefaultTimestamp;
}

export interface EditorSessionsTable {
  token_hash: string;
  editor_id: number;
  csrf_secret: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
}

export type DeskFieldName = 'summary' | 'takeaways' | 'level' | 'title' | 'intro' | 'facts';

export interface DeskEditsTable {
  week: string;
  item_key: string;
  field: DeskFieldName;
  generated: Json<unknown>;
  edited: ColumnType<unknown, string | null, string | null>;
  version: number;
  edited_by: string;
  edited_at: DefaultTimestamp;
}

export interface DeskWeeksTable {
  week: string;
  item_count: number | null;
  item_order: ColumnType<string[] | null, string | null, string | null>;
  updated_by: string;
  updated_at: DefaultTimestamp;
}

export interface ApprovalsTable {
  week: string;
  approved_by: string;
  approved_at: DefaultTimestamp;
}

export interface DeskAuditTable {
  id: Generated<number>;
  at: DefaultTimestamp;
  editor: string;
  action: string;
  week: string | null;
  item_key: string | null;
  detail: Json<Record<string, unknown>>;
}

export interface PaperTextsTable {
  arxiv_id: string;
  /** 0 when the page did not state a version. */
  version: number;
  status: 'read' | 'none';
  url: string;
  note: string | null;
  body: Json<PaperText | null>;
  fetched_at: DefaultTimestamp;
}

/** One row per site written from the store (a publish or a correction): the highest is the current generation. */
export interface SiteGenerationsTable {
  generation: Generated<string>;
  week: string;
  written_at: Generated<Date>;
}

/** A token bucket of a shared rate limit: its credit in ms of refill, as of `updated_at`; gone once full. */
export interface RateLimitBucketsTable {
  key: string;
  credit: number;
  updated_at: number;
  full_at: number;
  allowed: boolean;
}

/** A run of a scheduled job in one slot (a week, a day), claimed by the first instance to get there. */
export interface ScheduledRunsTable {
  job: string;
  slot: string;
  instance: string;
  claimed_at: Generated<Date>;
  finished_at: Date | null;
}

export type ScheduledSendState = 'scheduled' | 'started' | 'cancelled' | 'done';

/** A send set for a later time: waiting, claimed by one instance, cancelled, or done with its outcome. */
export interface ScheduledSendsTable {
  id: Generated<string>;
  edition: string;
  send_at: Date;
  time_zone: string;
  created_by: string;
  created_at: Generated<Date>;
  state: ColumnType<ScheduledSendState, ScheduledSendState | undefined, ScheduledSendState>;
  instance: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  outcome: Json<Record<string, unknown> | null>;
}

export interface Database {
  items: ItemsTable;
  source_state: SourceStateTable;
  editions: EditionsTable;
  edition_items: EditionItemsTable;
  decisions: DecisionsTable;
  cache: CacheTable;
  ingest_runs: IngestRunsTable;
  subscribers: SubscribersTable;
  send_log: SendLogTable;
  outbox: OutboxTable;
  subscriber_preferences: SubscriberPreferencesTable;
  edition_translations: EditionTranslationsTable;
  edition_revisions: EditionRevisionsTable;
  search_items: SearchItemsTable;
  editors: EditorsTable;
  editor_sessions: EditorSessionsTable;
  desk_edits: DeskEditsTable;
  desk_weeks: DeskWeeksTable;
  approvals: ApprovalsTable;
  desk_audit: DeskAuditTable;
  paper_texts: PaperTextsTable;
  link_clicks: LinkClicksTable;
  reader_clicks: ReaderClicksTable;
  reader_clicks_incoming: ReaderClicksTable;
  site_generations: SiteGenerationsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  scheduled_runs: ScheduledRunsTable;
  scheduled_sends: ScheduledSendsTable;
  reader_status_events: ReaderStatusEventsTable;
}
