// The one URL rule: which strings are web addresses we follow, and how an address is shown in messages and logs.

/**
 * `raw` (resolved against `base` when given) as a parsed URL when it is an absolute http(s) URL with a host,
 * else null: `javascript:`, `data:`, `file:`, relative without a base, and junk are all refused here.
 */
export function parseHttpUrl(raw: string | null | undefined, base?: string | null): URL | null {
  const value = raw?.trim();
  if (!value) return null;
  // Absolute addresses must say "http://" or "https://": "http:example.com" is a typo, not a link.
  if (!base && !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = base ? new URL(value, base) : new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url;
}

/** The normalised href of an http(s) URL (see parseHttpUrl), else null. */
export function httpUrl(raw: string | null | undefined, base?: string | null): string | null {
  return parseHttpUrl(raw, base)?.href ?? null;
}

export function isHttpUrl(raw: string | null | undefined): boolean {
  return parseHttpUrl(raw) !== null;
}

/** Why `raw` is not a fetchable URL ("not a valid URL", "ftp: is not http(s)"), or null when it is one. */
export function httpUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https URLs are fetched, not ${url.protocol}`;
  }
  if (!url.hostname) return 'the URL has no host';
  return null;
}

const MAX_SHOWN = 120;
const REDACTED = '***';
// Query (and fragment) parameters that carry secrets: API keys, tokens, signed-URL signatures, passwords.
const SECRET_PARAM =
  /^(?:(?:api|access|app|client|private|secret|subscription)?[-_]?key|apikey|(?:access|auth|id|refresh|session|bearer|oauth)?[-_]?token|auth|authorization|sig|signature|secret|client[-_]?secret|password|passwd|pass|pwd|credential|x-amz-(?:signature|credential|security-token)|x-goog-(?:signature|credential)|code|session(?:id)?|sid)$/i;
const SECRET_SUFFIX = /[-_](?:key|token|secret|signature|password)$/i;

function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {}
  return SECRET_PARAM.test(decoded) || SECRET_SUFFIX.test(decoded);
}

/** "a=1&token=xyz" → "a=1&token=***", keeping the other parameters byte for byte. */
function redactParams(params: string): string {
  return params
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isSecretParam(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The URL without user:password@ and with secret query/fragment parameters masked; not shortened. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not parseable: still never repeat what looks like credentials before an "@".
    return url.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, `$1${REDACTED}@`);
  }
  const userinfo = parsed.username || parsed.password ? `${REDACTED}@` : '';
  const search = parsed.search ? `?${redactParams(parsed.search.slice(1))}` : '';
  const hash = parsed.hash.includes('=') ? `#${redactParams(parsed.hash.slice(1))}` : parsed.hash;
  const authority = parsed.host ? `//${userinfo}${parsed.host}` : '';
  return `${parsed.protocol}${authority}${parsed.pathname}${search}${hash}`;
}

/**
 * A URL as it may appear in a message or a log: credentials removed (see redactUrl) and, when longer than
 * 120 characters, elided in the middle, so a batch query of a hundred ids does not drown the reason next to it.
 */
export function displayUrl(url: string): string {
  return shorten(redactUrl(url));
}

function shorten(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  const tail = 30;
  const head = MAX_SHOWN - tail - 1;
  return `${text.slice(0, head)}…${text.slice(-tail)}`;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Every URL inside a free text (an error message, a log line) passed through displayUrl. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    // A sentence's closing punctuation is not part of the address.
    const trailing = /[.,;:!?)\]]+$/.exec(match)?.[0] ?? '';
    return displayUrl(match.slice(0, match.length - trailing.length)) + trailing;
  });
}

/**
 * The URL normalised by the WHATWG parser when its scheme is http or https, else null.
 * `javascript:`, `data:`, `vbscript:` and relative or broken URLs are refused: the caller omits the link.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const url = parseHttpUrl(value);
  if (!url || url.username || url.password) return null;
  return url.href;
}

/** "https://example.com/digest" + "2026-05-04/" → absolute URL; null when no base URL is configured. */
export function absoluteUrl(baseUrl: string | undefined, path: string): string | null {
  const base = safeUrl(baseUrl);
  if (!base) return null;
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}

const GITHUB_REPO_PATH = /^\/[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[\w.-]{1,100}\/?$/;

/**
 * A repository's home on GitHub ("https://github.com/<owner>/<repo>", as HF's `githubRepo` gives it), normalised
 * without a trailing slash or ".git", else null: another scheme or host, credentials, a port, a deeper path, a query.
 */
export function githubRepoUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 300 || !/^https:\/\//i.test(raw.trim())) return null;
  const url = parseHttpUrl(raw);
  if (url?.protocol !== 'https:' || url.hostname !== 'github.com') return null;
  if (url.username || url.password || url.port || url.search || url.hash) return null;
  if (!GITHUB_REPO_PATH.test(url.pathname)) return null;
  const path = url.pathname.replace(/\/$/, '').replace(/\.git$/, '');
  if (!/^\/[^/]+\/(?!\.{1,2}$)[^/]+$/.test(path)) return null;
  return `https://github.com${path}`;
}

/** Where revision `revision` of the edition of `date` stays readable once corrected, relative to the site's root. */
export const revisionPath = (date: string, revision: number) => `${date}-r${revision}/`;
