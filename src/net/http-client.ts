// The one HTTP client: per-request timeout, body-size cap, retries on 429/5xx honouring Retry-After,
// conditional GET, and an SSRF check on every hop of every untrusted request.
import { BlockedUrlError, errorMessage, FetchError, UnreachableError } from '../core/errors.js';
import {
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  type Logger,
  silentLogger,
} from '../core/ports.js';
import { displayUrl } from '../core/urls.js';
import { readCappedBody } from './_body.js';
import { createPinnedAgent } from './_pinned-agent.js';
import { type Answer, type FetchResponse, followRedirects, type HopSettings } from './_redirects.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, retryAfterFromBody } from './_retry.js';
import { sleep } from './sleep.js';
import { type HostLookup, systemLookup } from './ssrf-guard.js';

export const DEFAULT_USER_AGENT = 'llm-news-digest/0.1 (+https://github.com/llm-news-digest/llm-news-digest)';

export interface HttpClientOptions {
  timeoutMs: number;
  maxBytes: number;
  retries: number;
  userAgent?: string;
  allowLoopback?: boolean;
  log?: Logger;
  /** How the client waits between attempts. */
  backoff?: HttpBackoff;
  /** Resolves host names (default: the system resolver); every connection asks it once and uses its answer. */
  lookup?: HostLookup;
}

export interface HttpBackoff {
  /** Longest wait between attempts, whatever Retry-After asks (default 60 s). */
  capMs?: number;
  /** Injected by tests to observe waits instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

// Connection failures that mean "no network here" (or no such host): retrying them only delays the report.
const UNREACHABLE: Record<string, string> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the name could not be resolved (no network or DNS?)',
  EAI_NONAME: 'the host name does not resolve',
  ECONNREFUSED: 'nothing is listening there',
  ENETUNREACH: 'no route to the network',
  EHOSTUNREACH: 'no route to the host',
  ENETDOWN: 'the network is down',
  EADDRNOTAVAIL: 'the address is not available here',
};

/** A non-2xx answer, kept so the retry loop can decide. */
interface Refusal {
  retryStatus: number;
  retryAfter: number | null;
  answer: Answer;
}

/** What every request of one client shares. */
interface Client {
  options: HttpClientOptions;
  log: Logger;
  /** Made with the first request (undici loads then). */
  hops: () => Promise<HopSettings>;
  /** Errors worth another attempt (network failures, timeouts); everything else is final. */
  transient: WeakSet<Error>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const log = options.log ?? silentLogger;
  const allowLoopback = options.allowLoopback ?? false;
  const lookup = options.lookup ?? systemLookup;
  let hops: Promise<HopSettings> | undefined;
  const client: Client = {
    options,
    log,
    hops: () =>
      (hops ??= Promise.all([
        createPinnedAgent({ guard: false, allowLoopback, lookup }),
        createPinnedAgent({ guard: true, allowLoopback, lookup }),
      ]).then(([trusted, guarded]) => ({
        userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
        allowLoopback,
        trusted,
        guarded,
        log,
      }))),
    transient: new WeakSet<Error>(),
  };
  const wait = options.backoff?.sleep ?? sleep;
  return {
    async request(request) {
      const method = request.method ?? 'GET';
      for (let tries = 1; ; tries++) {
        const step = await attemptOrWait(client, request, tries);
        if ('response' in step) return step.response;
        log.debug(
          `retrying ${method} ${request.label ?? displayUrl(request.url)} in ${step.delay} ms (${step.reason})`,
        );
        await wait(step.delay, request.signal);
      }
    },
  };
}

/** Attempt number `tries`: its response, its final error (thrown), or how long to wait before the next and why. */
async function attemptOrWait(
  client: Client,
  request: HttpRequest,
  tries: number,
): Promise<{ response: HttpResponse } | { delay: number; reason: string }> {
  const { options, transient } = client;
  const capMs = options.backoff?.capMs ?? 60_000;
  const jitter = options.backoff?.random ? { random: options.backoff.random } : {};
  let result: HttpResponse | Refusal;
  try {
    result = await attempt(client, request);
  } catch (error) {
    if (!(error instanceof Error) || !transient.has(error) || tries > options.retries) throw error;
    return { delay: backoffDelay(tries - 1, { capMs, ...jitter }), reason: error.message };
  }
  if (!('retryStatus' in result)) return { response: result };
  const { retryStatus, retryAfter, answer } = result;
  if (!isRetryableStatus(retryStatus) || tries > options.retries) {
    throw statusError({
      status: retryStatus,
      shown: request.label ?? displayUrl(answer.url),
      url: request.label ?? answer.url,
      tries,
    });
  }
  return {
    delay: retryAfter === null ? backoffDelay(tries - 1, { capMs, ...jitter }) : Math.min(retryAfter, capMs),
    reason: `HTTP ${retryStatus}${retryAfter === null ? '' : `, Retry-After ${retryAfter / 1000} s`}`,
  };
}

async function attempt(client: Client, request: HttpRequest): Promise<HttpResponse | Refusal> {
  const timeout = AbortSignal.timeout(request.timeoutMs ?? client.options.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  let answer: Answer;
  try {
    answer = await followRedirects(request, signal, await client.hops());
  } catch (error) {
    throw networkError({ client, error, url: request.url, signal, request });
  }
  const { response, url } = answer;
  if (response.status === 304) {
    await response.body?.cancel().catch(() => {});
    return toResponse({ response, url, body: Buffer.alloc(0), request });
  }
  if (response.status < 200 || response.status >= 300) {
    return { retryStatus: response.status, retryAfter: await retryAfterOf(response, url), answer };
  }
  try {
    const body = await readCappedBody(response, url, request.maxBytes ?? client.options.maxBytes);
    return toResponse({ response, url, body, request });
  } catch (error) {
    throw networkError({ client, error, url, signal, request });
  }
}

/** A failure before or while reading the answer, as a FetchError that says what happened; a transient one is marked. */
function networkError({
  client,
  error,
  url,
  signal,
  request,
}: {
  client: Client;
  error: unknown;
  url: string;
  signal: AbortSignal;
  request: HttpRequest;
}): FetchError {
  if (error instanceof FetchError) return error;
  const blocked = findCause(error, (cause) => cause instanceof BlockedUrlError);
  const shown = request.label ?? displayUrl(url);
  const kept = request.label ?? url;
  // A labelled URL carries a secret that a cause's own message may repeat: such errors keep no cause.
  const withCause = request.label ? undefined : { cause: error };
  if (blocked) {
    // Raised inside the connection, where only the host is known: say which URL it was.
    return new BlockedUrlError(blocked.message.replace(/^refused \S+:/, `refused ${shown}:`), { url: kept });
  }
  if (request.signal?.aborted) {
    const deadline = (request.signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
    const what = deadline ? 'stopped: its deadline passed' : 'was cancelled';
    return new FetchError(`request to ${shown} ${what}`, { url: kept, ...withCause });
  }
  const code = findCause(error, (cause) => typeof cause.code === 'string' && cause.code in UNREACHABLE)?.code;
  if (!signal.aborted && typeof code === 'string') {
    const host = hostOf(url);
    return new UnreachableError(
      `could not reach ${shown}: ${UNREACHABLE[code]} (${code}${host ? `, ${host}` : ''}); check the URL and your network`,
      { url: kept, ...withCause },
    );
  }
  const timeoutMs = request.timeoutMs ?? client.options.timeoutMs;
  const failure = signal.aborted
    ? new FetchError(`no answer from ${shown} within ${timeoutMs} ms; the server may be down or slow`, {
        url: kept,
      })
    : new FetchError(`could not reach ${shown} (${describeCause(error)}); check the URL and your network`, {
        url: kept,
        ...withCause,
      });
  client.transient.add(failure);
  return failure;
}

function toResponse({
  response,
  url,
  body,
  request,
}: {
  response: FetchResponse;
  url: string;
  body: Buffer;
  request: HttpRequest;
}): HttpResponse {
  const notModified = response.status === 304;
  return {
    url,
    status: response.status,
    headers: headerRecord(response.headers),
    body,
    notModified,
    etag: response.headers.get('etag') ?? (notModified ? (request.etag ?? null) : null),
    lastModified:
      response.headers.get('last-modified') ?? (notModified ? (request.lastModified ?? null) : null),
  };
}

/**
 * The wait a refusal asks for: the Retry-After header, else (for 429) the JSON body's `retry_after` in seconds, as
 * Discord and the Telegram bot API (`parameters.retry_after`) send it. Other bodies are discarded unread.
 */
async function retryAfterOf(response: FetchResponse, url: string): Promise<number | null> {
  const header = parseRetryAfter(response.headers.get('retry-after'));
  if (header !== null || response.status !== 429) {
    await response.body?.cancel().catch(() => {});
    return header;
  }
  const body = await readCappedBody(response, url, 64 * 1024).catch(() => null);
  return body ? retryAfterFromBody(body.toString('utf8')) : null;
}

/** `shown` is how the URL may appear in the message; `url` is kept on the error. */
function statusError({
  status,
  shown,
  url,
  tries,
}: {
  status: number;
  shown: string;
  url: string;
  tries: number;
}): FetchError {
  const after = tries > 1 ? ` after ${tries} attempts` : '';
  let advice = 'check the URL';
  if (status === 429) advice = 'the server is rate-limiting us; try again later';
  else if (status === 401 || status === 403)
    advice = 'the server refused access; check the URL or whether it blocks bots';
  else if (status === 404 || status === 410) advice = 'nothing is published there; check the URL';
  else if (status >= 500) advice = 'the server is failing; try again later';
  return new FetchError(`HTTP ${status} from ${shown}${after}: ${advice}`, { url, status });
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

type Cause = Error & { code?: unknown };

/** The first error in the `cause` chain (the error itself included) that matches. */
function findCause(error: unknown, matches: (cause: Cause) => boolean): Cause | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (matches(current as Cause)) return current as Cause;
    current = current.cause;
  }
  return undefined;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

function describeCause(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}

/**
 * The HTTP client of an `--offline` run: it refuses every request before any connection is made, so offline means
 * no network request whatever a stage tries (the stages that would fetch are also skipped up front, and say so).
 */
export const offlineHttpClient: HttpClient = {
  async request(request) {
    throw new UnreachableError(
      `--offline: no network request is made (refused ${request.label ?? displayUrl(request.url)})`,
      { url: request.label ?? request.url },
    );
  },
};
