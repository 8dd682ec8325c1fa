// GET/HEAD for the published site: URL → file (never outside the root), conditional requests, encodings, caching.
import type { Context } from 'hono';
import type { Encoding, SiteFile, SiteFiles } from './site-file-cache.js';

/** `name.0123abcd.js`: a content hash in the name means the file never changes under that name. */
const HASHED_ASSET = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;

export const CACHE_CONTROL = {
  html: 'public, max-age=300, must-revalidate',
  hashed: 'public, max-age=31536000, immutable',
  other: 'public, max-age=3600',
  none: 'no-store',
} as const;

/**
 * The site-relative file for a URL path, or null when the path is refused (traversal, dot files, NUL, backslash).
 * "/" and "/2026-05-04/" map to their index.html.
 */
export function sitePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || /[\0\\]/.test(decoded)) return null;
  const segments = decoded.slice(1).split('/');
  const last = segments.pop() ?? '';
  // Empty inner segments ("//") are refused too: one URL per file.
  if (segments.some((segment) => segment === '' || segment.startsWith('.'))) return null;
  if (last.startsWith('.')) return null;
  return [...segments, last || 'index.html'].join('/');
}

export function cacheControlFor(path: string): string {
  if (path.endsWith('.html')) return CACHE_CONTROL.html;
  return HASHED_ASSET.test(path) ? CACHE_CONTROL.hashed : CACHE_CONTROL.other;
}

/** The best encoding the client accepts among those we hold (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined, file: SiteFile): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...parameters] = part.trim().split(';');
    const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (file.bodies.br && allows('br')) return 'br';
  if (file.bodies.gzip && allows('gzip')) return 'gzip';
  return 'identity';
}

const ETAG_SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz', identity: '' };

function etagFor(file: SiteFile, encoding: Encoding): string {
  return `${file.etag.slice(0, -1)}${ETAG_SUFFIX[encoding]}"`;
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); any representation's tag of these bytes matches. */
function notModified(c: Context, file: SiteFile): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    const base = file.etag.slice(1, -1);
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
      .some((tag) => tag === base || tag === `${base}-br` || tag === `${base}-gz`);
  }
  const since = Date.parse(c.req.header('if-modified-since') ?? '');
  return !Number.isNaN(since) && Math.floor(file.mtimeMs / 1000) * 1000 <= since;
}

export interface SiteHandlerOptions {
  files: SiteFiles;
}

export function createSiteHandler({ files }: SiteHandlerOptions) {
  async function send(c: Context, file: SiteFile, status: 200 | 404): Promise<Response> {
    const encoding = chooseEncoding(c.req.header('accept-encoding'), file);
    const headers: Record<string, string> = {
      'Content-Type': file.contentType,
      'Cache-Control': status === 404 ? CACHE_CONTROL.none : cacheControlFor(file.path),
      Vary: 'Accept-Encoding',
    };
    if (status === 200) {
      headers.ETag = etagFor(file, encoding);
      headers['Last-Modified'] = file.lastModified;
      if (notModified(c, file)) return c.body(null, 304, headers);
    }
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    const body = file.bodies[encoding] ?? file.bodies.identity;
    headers['Content-Length'] = String(body.byteLength);
    if (c.req.method === 'HEAD') return c.body(null, status, headers);
    // Node's Buffers from readFile and zlib sit on plain ArrayBuffers: no copy per request.
    return c.body(body as Uint8Array<ArrayBuffer>, status, headers);
  }

  return async (c: Context): Promise<Response> => {
    const path = sitePath(c.req.path);
    if (path !== null) {
      const file = await files.get(path);
      if (file) return send(c, file, 200);
      // "/2026-05-04" → "/2026-05-04/": the pages' links are relative to their folder.
      if (!path.endsWith('.html') && !c.req.path.endsWith('/') && (await files.get(`${path}/index.html`))) {
        const query = new URL(c.req.url).search;
        return c.redirect(`${c.req.path}/${query}`, 301);
      }
    }
    const notFound = await files.get('404.html');
    if (notFound) return send(c, notFound, 404);
    return c.text('Not found', 404, { 'Cache-Control': CACHE_CONTROL.none });
  };
}
