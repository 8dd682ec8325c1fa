// The shapes stages use of the outside world. Typed by what we call, so tests fit real loopback parts.

import type { DateWindow, SourceItem } from './types.js';

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
