// What the rest of the program needs from the store, as narrow ports: each stage depends on the few operations
// it uses (ingest on ItemsPort and SourceStatePort, selection on CandidatesPort, the LLM road and enrichment on
// CachePort…). The full Store is their intersection, one implementation over PGlite and PostgreSQL.

import type { SourceState } from '../core/ports.js';
import type {
  DateWindow,
  Edition,
  EditionTranslation,
  PaperText,
  ReaderPreferences,
  SourceItem,
  SourceReport,
  StoredItem,
} from '../core/types.js';
import type { MailProblem, OutboxHealth, OutboxMail, OutboxOutcome } from './outbox.js';
import type { SubscriberExport } from './preferences.js';
import type { DeskFieldName, SendState, SubscriberStatus } from './schema.js';
import type { SendCounts, SendFailure, SendLogEntry, SendRecipient, SentMailRecord } from './send-log.js';
import type { Subscriber } from './subscribers.js';
import type { StoredTranslation } from './translations.js';

export interface EditionSummary {
  date: string;
  name: string;
  title: string;
  itemCount: number;
  publishedAt: string | null;
}

export type EditorDecision = 'pin' | 'skip';

export interface UpsertResult {
  /** New items stored. */
  inserted: number;
  /**
   * Items that matched a stored one (same canonical URL or arXiv id) and were merged into it, or matched an
   * earlier item of the same call. inserted + merged + skipped = the number of items given.
   */
  merged: number;
  /** Items that could not be stored (no http(s) URL nor arXiv id, or no valid date); each is logged. */
  skipped?: number;
}

/** One ingest as it ran: when, and what each source reported. */
export interface IngestRun {
  startedAt: string;
  finishedAt: string;
  sources: SourceReport[];
}

export type ItemPatch = Partial<Pick<StoredItem, 'citations' | 'authors' | 'text' | 'image' | 'title'>>;

/** Writing items: ingest, `digest add`, enrichment. */
export interface ItemsPort {
  /** Stores source items in one transaction; an item already stored (by key or canonical URL) is merged, not duplicated. */
  upsertItems(items: SourceItem[]): Promise<UpsertResult>;
  /** Stores (or re-pins) an item an editor added by hand for the edition dated `week`. */
  addManualItem(item: SourceItem, week: string, note: string | null): Promise<StoredItem>;
  /** Enrichment results: partial updates of item fields (citations, authors, text, image, title). */
  updateItem(key: string, patch: ItemPatch): Promise<void>;
  getItem(key: string): Promise<StoredItem | null>;
}

/** Reading what an edition may pick from. */
export interface CandidatesPort {
  /** Items published inside the window, plus manual items added for the window's edition (window.end). */
  listCandidates(window: DateWindow): Promise<StoredItem[]>;
  getItem(key: string): Promise<StoredItem | null>;
}

export interface EditionsPort {
  /** Saves (replaces) the edition for its date in one transaction. */
  saveEdition(edition: Edition): Promise<void>;
  getEdition(date: string): Promise<Edition | null>;
  /** Newest first; `limit` keeps only the newest ones. */
  listEditions(options?: { limit?: number }): Promise<EditionSummary[]>;
  markPublished(date: string, at: string): Promise<void>;
  /** Keys of items featured in editions published before `date`. */
  featuredBefore(date: string): Promise<Set<string>>;
}

export interface DecisionsPort {
  setDecision(week: string, itemKey: string, decision: EditorDecision | null): Promise<void>;
  decisions(week: string): Promise<Map<string, EditorDecision>>;
}

/** A JSON cache (LLM answers, enrichment results). Expired entries read as null. */
export interface CachePort {
  cacheGet<T = unknown>(namespace: string, key: string): Promise<T | null>;
  cachePut(namespace: string, key: string, value: unknown, ttlSeconds?: number): Promise<void>;
}

/** A paper's full text as read once for its version, or the record that arXiv had none. */
export interface PaperRecord {
  arxivId: string;
  version: number | null;
  /** read: `paper` holds its sections · none: no HTML rendering was found (`note` says what happened). */
  status: 'read' | 'none';
  url: string;
  note: string | null;
  paper: PaperText | null;
  fetchedAt: string;
}

/** Papers read in full (enrich/full-text.ts), kept so a rebuild reads none of them again. */
export interface PaperTextsPort {
  /** The most recent record of each id (the highest version; the latest fetch among equals). */
  paperTexts(arxivIds: readonly string[]): Promise<Map<string, PaperRecord>>;
  /** Stores (replaces) the record of one id and version; `fetchedAt` from the caller's clock (the refresh age). */
  savePaperText(record: PaperRecord): Promise<void>;
}

/** Conditional-GET validators per source. */
export interface SourceStatePort {
  getSourceState(sourceId: string): Promise<SourceState>;
  setSourceState(sourceId: string, state: SourceState): Promise<void>;
}

/** A record of ingest runs (for status pages and "when did we last fetch"). */
export interface IngestRunsPort {
  recordIngestRun(run: IngestRun): Promise<void>;
  /** The most recently finished ingest run, or null. */
  lastIngestRun(): Promise<IngestRun | null>;
}

/** Readers and their status (subscribe, confirm, unsubscribe, bounces); see subscribers.ts. */
export interface SubscribersPort {
  requestSubscription(address: string, mailbox: string): Promise<Subscriber>;
  requestSubscriptions(requests: readonly { address: string; mailbox: string }[]): Promise<Subscriber[]>;
  putSubscriber(address: string, mailbox: string, status: SubscriberStatus): Promise<Subscriber>;
  getSubscriber(by: { id: number } | { address: string }): Promise<Subscriber | null>;
  claimConfirmationMail(id: number, withinSeconds: number): Promise<boolean>;
  setSubscriberStatus(
    id: number,
    status: SubscriberStatus,
    from: readonly SubscriberStatus[],
  ): Promise<Subscriber | null>;
  recordBounce(id: number, limit: number): Promise<Subscriber | null>;
  removeSubscriber(address: string): Promise<boolean>;
  listSubscribers(options?: {
    status?: SubscriberStatus;
    afterId?: number;
    limit?: number;
  }): Promise<Subscriber[]>;
  countSubscribers(): Promise<Record<SubscriberStatus, number>>;
  getPreferences(subscriberId: number): Promise<ReaderPreferences | null>;
  /** False when the subscriber is gone. */
  setPreferences(subscriberId: number, preferences: ReaderPreferences): Promise<boolean>;
  /** Everything stored about one reader (row, preferences, send log), or null. */
  exportSubscriber(address: string): Promise<SubscriberExport | null>;
}

/** An edition's other languages (see translations.ts). */
export interface TranslationsPort {
  saveTranslation(date: string, translation: EditionTranslation, warnings: readonly string[]): Promise<void>;
  saveTranslationEdit(date: string, language: string, edited: EditionTranslation): Promise<boolean>;
  getTranslations(date: string): Promise<StoredTranslation[]>;
}

/** The outbox of mails requests cause (confirmation, welcome); see outbox.ts. */
export interface OutboxPort {
  requestSubscriptionsWithMail(
    requests: readonly { address: string; mailbox: string }[],
    windowSeconds: number,
  ): Promise<{ subscribers: Subscriber[]; queued: number }>;
  confirmSubscription(id: number, generation: number, welcome: boolean): Promise<Subscriber | null>;
  claimOutbox(worker: string, limit: number, leaseSeconds: number): Promise<OutboxMail[]>;
  outboxHandOver(id: number, worker: string): Promise<boolean>;
  settleOutbox(id: number, worker: string, outcome: OutboxOutcome): Promise<void>;
  outboxHealth(): Promise<OutboxHealth>;
  mailProblems(subscriberIds: readonly number[]): Promise<MailProblem[]>;
}

export type JobLockResult<T> = { acquired: true; value: T } | { acquired: false };

/** Processes sharing one database: who runs a job, and (PGlite) letting other commands in while serving. */
export interface JobsPort {
  /**
   * Runs `fn` unless another process runs the job `name` now (PostgreSQL: a session advisory lock; PGlite: the data
   * folder's lock already makes this process the only one); `{ acquired: false }`, without running it, when one does.
   */
  withJobLock<T>(name: string, fn: () => Promise<T>): Promise<JobLockResult<T>>;
}

/** A PGlite data folder shared with other digest commands while this process holds it (see share-pglite.ts). */
export interface SharedDatabase {
  /** The Unix socket other commands connect to. */
  address: string;
  close(): Promise<void>;
}

export interface SearchItemsQuery {
  /** The reader's words, parsed by websearch_to_tsquery ("quoted phrases", or, -not); never SQL. */
  text: string;
  /** Edition dates, inclusive (YYYY-MM-DD). */
  from?: string;
  to?: string;
  level?: string;
  /** The item's primary source or any source that carried it. */
  source?: string;
  /** At least one of these phrases must match (a topic's terms). */
  anyOfPhrases?: readonly string[];
  limit: number;
  offset: number;
}

/** One item as a published edition showed it, with where it was featured. */
export interface PublishedItem {
  editionDate: string;
  /** 0-based position in the edition. */
  position: number;
  key: string;
  title: string;
  url: string;
  level: string;
  source: string;
  sources: string[];
  authors: string[];
  summary: string;
  takeaways: string[];
  /** When the source published it (ISO 8601), as the edition recorded it. */
  publishedAt: string;
}

export interface SearchHit extends PublishedItem {
  rank: number;
}

/** The published archive for readers and agents (JSON API, MCP); see search.ts. Drafts are never in it. */
export interface SearchPort {
  searchItems(query: SearchItemsQuery): Promise<SearchHit[]>;
  /** Every published edition that featured the item, newest first. */
  publishedItem(key: string): Promise<PublishedItem[]>;
  listPublishedEditions(page: { limit: number; offset: number }): Promise<{
    editions: EditionSummary[];
    total: number;
  }>;
}

export interface Editor {
  id: number;
  email: string;
  createdAt: string;
}

/** A live session (not revoked, not expired) and whose it is. */
export interface EditorSession {
  editorId: number;
  email: string;
  csrfSecret: string;
  expiresAt: string;
}

/** Editors of the desk and their sessions (see desk-editors.ts). */
export interface EditorsPort {
  /** null when the address is already an editor. */
  addEditor(email: string, passwordHash: string): Promise<Editor | null>;
  editorCredentials(email: string): Promise<{ id: number; email: string; passwordHash: string } | null>;
  listEditors(): Promise<Editor[]>;
  /** Removes the editor and every session of theirs; false when there was none. */
  removeEditor(email: string): Promise<boolean>;
  createSession(session: {
    tokenHash: string;
    editorId: number;
    csrfSecret: string;
    expiresAt: Date;
  }): Promise<void>;
  /** The session for a token hash, or null when unknown, revoked or expired at `now`. */
  getSession(tokenHash: string, now: Date): Promise<EditorSession | null>;
  revokeSession(tokenHash: string, now: Date): Promise<void>;
}

export type DeskField = DeskFieldName;

/** The editor's version of one field beside the generated one; item key '' is the edition's title and intro. */
export interface DeskEdit {
  week: string;
  itemKey: string;
  field: DeskField;
  generated: unknown;
  /** null: reverted to the generated text. */
  edited: unknown;
  version: number;
  editedBy: string;
  editedAt: string;
}

export interface DeskWeek {
  week: string;
  itemCount: number | null;
  /** Item keys in the order the editor set; keys not listed follow in the plan's order. */
  order: string[] | null;
  updatedBy: string;
  updatedAt: string;
}

export interface DeskDecision {
  itemKey: string;
  decision: EditorDecision;
  decidedBy: string | null;
  decidedAt: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  editor: string;
  action: string;
  week: string | null;
  itemKey: string | null;
  detail: Record<string, unknown>;
}

export type SaveEditsResult = { ok: true; version: number } | { ok: false; current: DeskEdit[] };

/** The desk's per-week state: edits, count and order, who decided what, approvals, the audit log. */
export interface DeskPort {
  deskEdits(week: string): Promise<DeskEdit[]>;
  /**
   * Saves field changes of one item (or the header, key '') when its version is still `expectedVersion`
   * (0: never edited); otherwise nothing is written and the current rows come back.
   */
  saveDeskEdits(
    week: string,
    itemKey: string,
    expectedVersion: number,
    changes: { field: DeskField; generated: unknown; edited: unknown }[],
    by: string,
  ): Promise<SaveEditsResult>;
  /** Records `edition`'s texts as the generated ones and returns it with every editor's version applied. */
  keepEditorEdits(edition: Edition): Promise<Edition>;
  deskWeek(week: string): Promise<DeskWeek | null>;
  setDeskWeek(
    week: string,
    patch: { itemCount?: number | null; order?: string[] | null },
    by: string,
  ): Promise<void>;
  setDeskDecision(week: string, itemKey: string, decision: EditorDecision | null, by: string): Promise<void>;
  deskDecisions(week: string): Promise<DeskDecision[]>;
  recordApproval(week: string, by: string): Promise<void>;
  approval(week: string): Promise<{ approvedBy: string; approvedAt: string } | null>;
  recordAudit(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void>;
  /** Newest first. */
  listAudit(options?: { week?: string; limit?: number }): Promise<AuditEntry[]>;
}

/** The send log of `digest send` (see send-log.ts): rows written before sending, claimed, then settled. */
export interface SendLogPort {
  enqueueSend(edition: string): Promise<{ added: number; skipped: number; retried: number }>;
  sendClaimers(edition: string): Promise<string[]>;
  recoverAbandoned(
    edition: string,
    deadClaimers: readonly string[],
    leaseSeconds: number,
  ): Promise<{ requeued: number; uncertain: number }>;
  requeueUncertain(edition: string): Promise<number>;
  reserveSendBatch(
    edition: string,
    worker: string,
    limit: number,
    deadClaimers: readonly string[],
    leaseSeconds: number,
  ): Promise<number[]>;
  startSending(edition: string, subscriberId: number, worker: string): Promise<SendRecipient | null>;
  handOver(edition: string, subscriberId: number, worker: string): Promise<boolean>;
  recordSent(edition: string, subscriberId: number, worker: string, sent: SentMailRecord): Promise<void>;
  recordFailed(edition: string, subscriberId: number, worker: string, failed: SendFailure): Promise<void>;
  sendCounts(edition: string): Promise<SendCounts & { nextRetryInMs: number | null }>;
  sendLogCounts(): Promise<SendCounts>;
  listSendLog(
    edition: string,
    options: { states: readonly SendState[]; afterId?: number; limit?: number },
  ): Promise<SendLogEntry[]>;
  previewRecipients(
    edition: string,
    options?: { afterId?: number; limit?: number },
  ): Promise<{ id: number; address: string }[]>;
}

/* The revisions of published editions (queries in store/revisions.ts). */
export interface RevisionSummary {
  revision: number;
  publishedAt: string;
  /** Who published it: null for revision 1 (published by `digest publish` or approval). */
  editor: string | null;
  reason: string | null;
}

export interface PublishCorrectionInput {
  /** The corrected edition, with its `corrections` list already naming the new revision last. */
  edition: Edition;
  revision: number;
  editor: string;
  reason: string;
  at: string;
}

/** The revisions of published editions: listed, read whole, and a correction published. */
export interface RevisionsPort {
  /** Oldest first; empty for an edition that was never published. */
  listRevisions(date: string): Promise<RevisionSummary[]>;
  /** Revision `revision` as readers had it, or null. */
  getRevision(date: string, revision: number): Promise<Edition | null>;
  publishCorrection(input: PublishCorrectionInput): Promise<void>;
}

export interface Store
  extends JobsPort,
    ItemsPort,
    CandidatesPort,
    EditionsPort,
    DecisionsPort,
    CachePort,
    SourceStatePort,
    IngestRunsPort,
    SubscribersPort,
    OutboxPort,
    TranslationsPort,
    SearchPort,
    EditorsPort,
    DeskPort,
    SendLogPort,
    PaperTextsPort {
  /**
   * PGlite in a data folder: opens it to other digest commands until the store closes (`digest serve`). Null on
   * PostgreSQL, in memory, or when it cannot be shared (the reason is logged).
   */
  shareDatabase(): Promise<SharedDatabase | null>;
  /** Every published revision of an edition, and corrections (store/revisions.ts). */
  revisions: RevisionsPort;
  close(): Promise<void>;
}
