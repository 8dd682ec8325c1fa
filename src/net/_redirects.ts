// Redirects followed by hand, so every hop is checked: a redirect to another origin is the server's choice,
// not the user's, so from there on the request is untrusted (SSRF-checked) and carries no credentials.
import type { Dispatcher, fetch as undiciFetch } from 'undici';
import { BlockedUrlError, FetchError } from '../core/errors.js';
import type { HttpRequest, Logger } from '../core/ports.js';
import { displayUrl, httpUrlProblem } from '../core/urls.js';
import { assertFetchableUrl } from './ssrf-guard.js';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type FetchResponse = Awaited<ReturnType<typeof undiciFetch>>;

export interface Answer {
  response: FetchResponse;
  /** Final URL after redirects. */
  url: string;
}

export interface HopSettings {
  userAgent: string;
  allowLoopback: boolean;
  /** Connects configured (trusted) URLs wherever they point. */
  trusted: Dispatcher;
  /** Connects everything else only to checked public addresses (see _pinned-agent.ts). */
  guarded: Dispatcher;
  log: Logger;
}

/** Sends the request and follows up to 5 redirects; fetch's own errors are rethrown as they come. */
export async function followRedirects(
  request: HttpRequest,
  signal: AbortSignal,
  settings: HopSettings,
): Promise<Answer> {
  let url = checkedUrl(request.url, null, request.label).href;
  let trusted = request.trusted === true;
  let method = request.method ?? 'GET';
  let body = request.body;
  const headers: Record<string, string> = {
    'user-agent': settings.userAgent,
    ...lowerKeys(request.headers ?? {}),
  };
  if (request.etag) headers['if-none-match'] = request.etag;
  if (request.lastModified) headers['if-modified-since'] = request.lastModified;
  // Loaded with the first request (see _pinned-agent.ts); the dispatchers have loaded it already.
  const { fetch } = await import('undici');
  for (let hop = 0; ; hop++) {
    checkedUrl(url, trusted ? null : { allowLoopback: settings.allowLoopback }, request.label);
    const response = await fetch(url, {
      method,
      headers,
      body: body ?? null,
      redirect: 'manual',
      signal,
      dispatcher: trusted ? settings.trusted : settings.guarded,
    });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location) return { response, url };
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) {
      throw new FetchError(
        `more than ${MAX_REDIRECTS} redirects from ${request.label ?? displayUrl(request.url)}; check the URL`,
        { url: request.label ?? url },
      );
    }
    const next = new URL(location, url);
    if (next.origin !== new URL(url).origin) {
      trusted = false;
      delete headers.authorization;
      delete headers.cookie;
    }
    if (response.status === 303 || (method === 'POST' && response.status <= 302)) {
      method = 'GET';
      body = undefined;
    }
    settings.log.debug(
      `redirect ${response.status}: ${request.label ? `${request.label} → elsewhere` : `${displayUrl(url)} → ${displayUrl(next.href)}`}`,
    );
    url = next.href;
  }
}

/** assertFetchableUrl, with a labelled (secret-carrying) URL named by its label in the error. */
function checkedUrl(url: string, guard: Parameters<typeof assertFetchableUrl>[1], label?: string): URL {
  try {
    return assertFetchableUrl(url, guard);
  } catch (error) {
    if (!label || !(error instanceof BlockedUrlError)) throw error;
    throw new BlockedUrlError(`refused ${label}: ${httpUrlProblem(url) ?? 'not a public address'}`, {
      url: label,
    });
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
