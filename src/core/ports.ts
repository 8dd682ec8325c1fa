// The shapes stages use of the outside world. Typed by what we call, so tests fit real loopback parts.

import type { DateWindow, Edition, PaperText, SourceItem, StoredItem } from './types.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, debug() {} };

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST' | 'HEAD' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /**
   * How the URL appears in messages, logs and errors instead of the URL itself: for URLs that carry a secret
   * (chat webhooks, bot tokens in the path).
   */
  label?: string;
  /**
   * Configured source URLs are trusted to point anywhere the user chose. Every other URL (manual ones,
   * links found in content, redirects off a trusted URL) is refused when it resolves to a non-public address.
   */
  trusted?: boolean;
  /** Conditional GET validators from the previous fetch of this URL. */
  etag?: string | null;
  lastModified?: string | null;
  /** Overrides the client's default body cap (bytes). */
  maxBytes?: number;
  /** Overrides the client's default timeout (ms). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True for a 304 answer to a conditional GET (body empty). */
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
}

/** The one HTTP client. Throws FetchError (with status) for non-2xx/304 answers after retries. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/**
 * Per-source state kept between runs (conditional GET validators, keyed by URL), with the window whose items
 * were read from that response: a 304 stands in only for a fetch that covered the window asked for now.
 */
export type SourceState = Record<
  string,
  { etag: string | null; lastModified: string | null; window?: DateWindow }
>;

export interface SourceContext {
  window: DateWindow;
  http: HttpClient;
  state: SourceState;
  log: Logger;
  /** Aborted by Ctrl-C, or with a "TimeoutError" reason when the source's overall deadline passes. */
  signal?: AbortSignal;
  /** How many requests a per-day source sends at once (default 3). */
  dayConcurrency?: number;
}

export interface SourceFetchResult {
  items: SourceItem[];
  warnings: string[];
  /** Set when the source as a whole failed; items may still hold what was read before the failure. */
  error?: string;
  /** Updated validators to keep for the next run. */
  state?: SourceState;
  /** Every request was answered 304: nothing changed since the last run (its items are already stored). */
  notModified?: boolean;
}

export interface Source {
  id: string;
  kind: string;
  fetch(context: SourceContext): Promise<SourceFetchResult>;
}

export interface FileSystem {
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
}

// The stored things the stages read and write. Declared here, on the ground floor, and implemented by store/ (one
// query module each: store/items.ts, editions.ts, decisions.ts, cache.ts, paper-texts.ts), so no stage imports store/.

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

export type ItemPatch = Partial<Pick<StoredItem, 'citations' | 'authors' | 'text' | 'image' | 'title'>>;

/** The items: what ingest, `digest add` and enrichment write, and what an edition may pick from. */
export interface ItemsPort {
  /** Stores source items in one transaction; an item already stored (by key or canonical URL) is merged, not duplicated. */
  upsert(items: SourceItem[]): Promise<UpsertResult>;
  /** Stores (or re-pins) an item an editor added by hand for the edition dated `week`. */
  addManual(item: SourceItem, week: string, note: string | null): Promise<StoredItem>;
  /** Enrichment results: partial updates of item fields (citations, authors, text, image, title). */
  update(key: string, patch: ItemPatch): Promise<void>;
  get(key: string): Promise<StoredItem | null>;
  /** Items published inside the window, plus manual items added for the window's edition (window.end). */
  candidates(window: DateWindow): Promise<StoredItem[]>;
}

export interface EditionSummary {
  date: string;
  name: string;
  title: string;
  itemCount: number;
  publishedAt: string | null;
}

export interface EditionsPort {
  /** Saves (replaces) the edition for its date in one transaction. */
  save(edition: Edition): Promise<void>;
  get(date: string): Promise<Edition | null>;
  /** Newest first; `limit` keeps only the newest ones. */
  list(options?: { limit?: number }): Promise<EditionSummary[]>;
  markPublished(date: string, at: string): Promise<void>;
  /** Keys of items featured in editions published before `date`. */
  featuredBefore(date: string): Promise<Set<string>>;
}

export type EditorDecision = 'pin' | 'skip';

/** A decision with who made it (the desk) and when. */
export interface DeskDecision {
  itemKey: string;
  decision: EditorDecision;
  decidedBy: string | null;
  decidedAt: string;
}

/** The editor's pins and skips, per week. */
export interface DecisionsPort {
  /**
   * Pins or skips an item for a week (null removes the decision). `by` names the editor (the desk); a decision
   * without one (the CLI) leaves the recorded editor as it was.
   */
  set(decision: {
    week: string;
    itemKey: string;
    decision: EditorDecision | null;
    by?: string;
  }): Promise<void>;
  /** The week's decisions by item key. */
  get(week: string): Promise<Map<string, EditorDecision>>;
  /** The week's decisions with who made them, oldest first. */
  list(week: string): Promise<DeskDecision[]>;
}

/** A JSON cache (LLM answers, enrichment results). Expired entries read as null. */
export interface CachePort {
  get<T = unknown>(namespace: string, key: string): Promise<T | null>;
  /** The entries of `keys` found (one query for all: a build reads a dozen at once); absent: `get` for each. */
  getMany?<T = unknown>(namespace: string, keys: readonly string[]): Promise<Map<string, T>>;
  /** Without `ttlSeconds` (or with a non-finite one) the entry never expires. */
  put(entry: { namespace: string; key: string; value: unknown; ttlSeconds?: number }): Promise<void>;
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
  latest(arxivIds: readonly string[]): Promise<Map<string, PaperRecord>>;
  /** Stores (replaces) the record of one id and version; `fetchedAt` from the caller's clock (the refresh age). */
  save(record: PaperRecord): Promise<void>;
}

/** The store's groups the stages use (store/types.ts's Store has them all): a stage asks for `Pick<StageStore, 'cache'>`. */
export interface StageStore {
  items: ItemsPort;
  editions: EditionsPort;
  decisions: DecisionsPort;
  cache: CachePort;
  paperTexts: PaperTextsPort;
}
