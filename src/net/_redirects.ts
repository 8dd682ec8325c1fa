// Redirects followed by hand, so every hop is checked: a redirect to another origin is the server's choice,
// not the user's, so from there on the request is untrusted (SSRF-checked) and carries no credentials.
import { FetchError } from '../core/errors.js';
import type { HttpRequest, Logger } from '../core/ports.js';
import { assertPublicUrl, type HostLookup } from './ssrf-guard.js';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface Answer {
  response: Response;
  /** Final URL after redirects. */
  url: string;
}

export interface HopSettings {
  userAgent: string;
  allowLoopback: boolean;
  lookup?: HostLookup;
  log: Logger;
}

/** Sends the request and follows up to 5 redirects; fetch's own errors are rethrown as they come. */
export async function followRedirects(
  request: HttpRequest,
  signal: AbortSignal,
  settings: HopSettings,
): Promise<Answer> {
  let url = parseUrl(request.url).href;
  let trusted = request.trusted === true;
  let method = request.method ?? 'GET';
  let body = request.body;
  const headers: Record<string, string> = {
    'user-agent': settings.userAgent,
    ...lowerKeys(request.headers ?? {}),
  };
  if (request.etag) headers['if-none-match'] = request.etag;
  if (request.lastModified) headers['if-modified-since'] = request.lastModified;
  for (let hop = 0; ; hop++) {
    if (trusted) assertHttp(url);
    else {
      await assertPublicUrl(url, {
        allowLoopback: settings.allowLoopback,
        ...(settings.lookup ? { lookup: settings.lookup } : {}),
      });
    }
    const response = await fetch(url, { method, headers, body: body ?? null, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location) return { response, url };
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) {
      throw new FetchError(`more than ${MAX_REDIRECTS} redirects from ${request.url}; check the URL`, url);
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
    settings.log.debug(`redirect ${response.status}: ${url} → ${next.href}`);
    url = next.href;
  }
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new FetchError(`not a valid URL: ${url}`, url, undefined, { cause: error });
  }
}

function assertHttp(url: string): void {
  const protocol = parseUrl(url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new FetchError(`only http and https URLs are fetched, not ${protocol} (${url})`, url);
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
