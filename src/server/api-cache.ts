// A short-lived cache of the API's answers, serialised with their ETag: a published edition changes once a week,
// while each answer costs a database round trip, a JSON encoding and a hash. Entries live `ttlMs` (well under the
// Cache-Control max-age every client and CDN may already hold them for), and the cache holds at most `maxBytes`,
// the oldest entries leaving first.
export interface CachedAnswer {
  /** UTF-8 JSON, encoded once. */
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  cacheControl: string;
}

export interface AnswerCache {
  get(key: string): CachedAnswer | undefined;
  set(key: string, answer: CachedAnswer): void;
}

export function createAnswerCache(options: {
  ttlMs: number;
  maxBytes: number;
  now?: () => number;
}): AnswerCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, CachedAnswer & { expires: number; bytes: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        remove(key);
        return undefined;
      }
      return entry;
    },
    set(key, answer) {
      const size = answer.body.byteLength + key.length * 2;
      if (size > options.maxBytes / 4) return;
      remove(key);
      entries.set(key, { ...answer, expires: now() + options.ttlMs, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= options.maxBytes) break;
        remove(oldest);
      }
    },
  };
}
