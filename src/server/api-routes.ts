// The read-only JSON API under /api/v1: parse the query with the archive's zod schemas (a bad value is a 400 naming
// the field), call the use case, answer with an ETag (304 on If-None-Match), Cache-Control and open CORS for GET.
import { createHash } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  type Archive,
  editionDateInput,
  firstIssue,
  itemKeyInput,
  languageInput,
  listEditionsInput,
  openApiDocument,
  searchItemsInput,
} from '../api/index.js';
import type { RateLimitStore } from '../core/rate-limiter.js';
import { type AnswerCache, type CachedAnswer, createAnswerCache } from './api-cache.js';
import { clientGroup } from './client-address.js';
import { limitsIn, rateLimit } from './guards.js';

export const API_CACHE_CONTROL = {
  /** Lists and searches change when an edition is published. */
  list: 'public, max-age=60',
  /** A published edition changes only when it is republished. */
  entry: 'public, max-age=300',
  document: 'public, max-age=3600',
  none: 'no-store',
} as const;

/** How long an answer is served from memory: a newly published edition shows within this. */
export const API_ANSWER_TTL_MS = 10_000;

export interface ApiRoutesOptions {
  archive: Archive;
  version: string;
  /** Tests pass their own to control time. */
  cache?: AnswerCache;
  /** Requests one client address may make per minute (a burst of as many, then one per 60/perMinute s). */
  perMinute?: number;
  trustProxy?: boolean;
  /** The limiter's clock in ms: the digest's (default: the wall clock). */
  now?: (() => number) | undefined;
  /** Where the limits' buckets live (the database instances share); default: this process's memory, on `now`. */
  rateLimits?: RateLimitStore | undefined;
}

function etagOf(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function toAnswer(value: unknown, cacheControl: string): CachedAnswer {
  // Node's Buffers sit on plain ArrayBuffers: sent as they are, no copy per request.
  const body = Buffer.from(JSON.stringify(value)) as Uint8Array<ArrayBuffer>;
  return { body, etag: etagOf(body), cacheControl };
}

/**
 * Any origin may read the API (no credentials: nothing in it is private). Set on each answer as it is made, not
 * by Hono's cors middleware: that one touches `c.res` before the route runs, which turns every answer into a
 * streamed web Response (measured: a third of the edition GET's throughput).
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag',
} as const;

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET,HEAD,OPTIONS',
  'Access-Control-Allow-Headers': 'If-None-Match',
  'Access-Control-Max-Age': '86400',
} as const;

function send(c: Context, { body, etag, cacheControl }: CachedAnswer): Response {
  const headers = { ...CORS_HEADERS, ETag: etag, 'Cache-Control': cacheControl, Vary: 'Accept-Encoding' };
  if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
}

function problem({
  c,
  status,
  field,
  message,
}: {
  c: Context;
  status: 400 | 404 | 405;
  field: string | null;
  message: string;
}): Response {
  return c.json({ error: { field, message } }, status, {
    ...CORS_HEADERS,
    'Cache-Control': API_CACHE_CONTROL.none,
  });
}

/** Parses `value` or answers 400 naming the field. */
function parse<S extends z.ZodType>({
  c,
  schema,
  value,
  field,
}: {
  c: Context;
  schema: S;
  value: unknown;
  field?: string;
}): { ok: true; data: z.output<S> } | { ok: false; response: Response } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issue = firstIssue(result.error);
  return {
    ok: false,
    response: problem({ c, status: 400, field: field ?? issue.field, message: issue.message }),
  };
}

type Cached = (c: Context, make: () => Promise<CachedAnswer | Response>) => Promise<Response>;

export function createApiRoutes({ archive, version, cache: given, ...options }: ApiRoutesOptions): Hono {
  const api = new Hono();
  // Per client address, before any work (answers from memory included: a flood still costs the event loop).
  const perMinute = options.perMinute ?? 120;
  const limiter = limitsIn(options).limiter('api', { capacity: perMinute, refillMs: 60_000 / perMinute });
  const trustProxy = options.trustProxy ?? false;
  api.use(
    '*',
    rateLimit(limiter, (c) => clientGroup(c, trustProxy), {
      ...CORS_HEADERS,
      'Cache-Control': API_CACHE_CONTROL.none,
    }),
  );
  const cached = cachedBy(
    given ?? createAnswerCache({ ttlMs: API_ANSWER_TTL_MS, maxBytes: 16 * 1024 * 1024 }),
  );
  // The CORS preflight: what a browser asks before a GET with If-None-Match.
  api.options('*', (c) => c.body(null, 204, PREFLIGHT_HEADERS));

  const document = toAnswer(openApiDocument({ version }), API_CACHE_CONTROL.document);
  api.get('/openapi.json', (c) => send(c, document));
  registerArchiveRoutes(api, archive, cached);

  api.on(['GET', 'HEAD'], '*', (c) =>
    problem({ c, status: 404, field: null, message: 'No such API resource; see /api/v1/openapi.json.' }),
  );
  api.all('*', (c) => {
    c.header('Allow', 'GET, HEAD, OPTIONS');
    return problem({ c, status: 405, field: null, message: 'The API is read-only: GET only.' });
  });
  return api;
}

/** The answer for this URL from memory, or made, cached and sent; a handler's error response is never cached. */
function cachedBy(cache: AnswerCache): Cached {
  return async (c, make) => {
    // The path and query: everything after the origin.
    const key = c.req.url.slice(c.req.url.indexOf('/', c.req.url.indexOf('//') + 2));
    const hit = cache.get(key);
    if (hit) return send(c, hit);
    const made = await make();
    if (made instanceof Response) return made;
    cache.set(key, made);
    return send(c, made);
  };
}

/** The archive's four reads, each parsed, asked and answered through the cache. */
function registerArchiveRoutes(api: Hono, archive: Archive, cached: Cached): void {
  api.get('/editions', (c) =>
    cached(c, async () => {
      const input = parse({ c, schema: listEditionsInput, value: c.req.query() });
      if (!input.ok) return input.response;
      return toAnswer(await archive.listEditions(input.data), API_CACHE_CONTROL.list);
    }),
  );

  api.get('/editions/:date', (c) =>
    cached(c, async () => {
      const date = parse({ c, schema: editionDateInput, value: c.req.param('date'), field: 'date' });
      if (!date.ok) return date.response;
      const lang = parse({ c, schema: languageInput, value: c.req.query('lang'), field: 'lang' });
      if (!lang.ok) return lang.response;
      const edition = await archive.getEdition(date.data, lang.data);
      if (!edition && lang.data) {
        return problem({
          c,
          status: 404,
          field: 'lang',
          message: `No published edition dated ${date.data} in "${lang.data}".`,
        });
      }
      if (!edition)
        return problem({
          c,
          status: 404,
          field: 'date',
          message: `No published edition is dated ${date.data}.`,
        });
      return toAnswer(edition, API_CACHE_CONTROL.entry);
    }),
  );

  // Keys hold "/" ("url:https://…"): clients percent-encode them, and the rest of the path is the key either way.
  api.get('/items/:key{.+}', (c) =>
    cached(c, async () => {
      const key = parse({ c, schema: itemKeyInput, value: c.req.param('key'), field: 'key' });
      if (!key.ok) return key.response;
      const item = await archive.getItem(key.data);
      if (!item)
        return problem({
          c,
          status: 404,
          field: 'key',
          message: 'No published edition featured an item with that key.',
        });
      return toAnswer(item, API_CACHE_CONTROL.entry);
    }),
  );

  api.get('/search', (c) =>
    cached(c, async () => {
      const input = parse({ c, schema: searchItemsInput, value: c.req.query() });
      if (!input.ok) return input.response;
      return toAnswer(await archive.searchItems(input.data), API_CACHE_CONTROL.list);
    }),
  );
}
