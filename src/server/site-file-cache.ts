// The published site's files in memory: read once per (mtime, size), compressed once, with a strong ETag.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.eml': 'message/rfc822',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.json', '.xml', '.svg', '.txt', '.md', '.eml']);
/** Below this a compressed body saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 512;

export type Encoding = 'br' | 'gzip' | 'identity';

export interface SiteFile {
  /** Path relative to the site root, "/"-separated. */
  path: string;
  contentType: string;
  mtimeMs: number;
  size: number;
  /** Strong validator of the bytes; a compressed body gets its own ("…-br", "…-gz"): it is another representation. */
  etag: string;
  lastModified: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

export interface SiteFilesOptions {
  root: string;
  /** Files larger than this are read for each request and sent uncompressed instead of being kept in memory. */
  maxFileBytes?: number;
  /** All kept files (compressed copies included) stay under this; the least recently used go first. */
  maxCacheBytes?: number;
  /**
   * A kept file is checked against the disk (stat: mtime and size) at most this often. A stat per request was a
   * quarter of the CPU time under load; a new `digest publish` shows within this delay. 0: check every request.
   */
  revalidateMs?: number;
  now?: () => number;
  /** Applied to each HTML page once when it is read (the subscribe slot filled); ETag and compression follow it. */
  transformHtml?: (page: string) => string;
}

export interface SiteFiles {
  /** The file at a site-relative path (already checked to stay inside the root), or null when there is none. */
  get(relativePath: string): Promise<SiteFile | null>;
  /** Bytes held in memory (for metrics). */
  readonly cachedBytes: number;
}

export function createSiteFiles(options: SiteFilesOptions): SiteFiles {
  const maxFileBytes = options.maxFileBytes ?? 4 * 1024 * 1024;
  const maxCacheBytes = options.maxCacheBytes ?? 64 * 1024 * 1024;
  const revalidateMs = options.revalidateMs ?? 1000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Promise<SiteFile | null>>();
  const checkedAt = new Map<string, number>();
  const sizes = new Map<string, number>();
  let cachedBytes = 0;

  const forget = (key: string) => {
    cache.delete(key);
    checkedAt.delete(key);
    cachedBytes -= sizes.get(key) ?? 0;
    sizes.delete(key);
  };

  /** Counts a newly read file in, then lets the least recently used go until the cache fits again. */
  const keep = (relativePath: string, entry: SiteFile) => {
    const bytes = Object.values(entry.bodies).reduce((sum, body) => sum + body.byteLength, 0);
    sizes.set(relativePath, bytes);
    checkedAt.set(relativePath, now());
    cachedBytes += bytes;
    for (const key of cache.keys()) {
      if (cachedBytes <= maxCacheBytes || key === relativePath) break;
      forget(key);
    }
  };

  const load = fileReader(options);

  return {
    async get(relativePath) {
      const checked = checkedAt.get(relativePath);
      if (checked !== undefined && now() - checked < revalidateMs) {
        const fresh = await cache.get(relativePath);
        if (fresh) return fresh;
      }
      // The root resolved on each check, never kept: a publish flips the site's link to a new generation
      // (publish/site-swap.ts), and each file is read from the generation live when it is checked.
      const root = await realpath(options.root).catch(() => null);
      const file = `${root}${sep}${relativePath.split('/').join(sep)}`;
      const info = root === null ? null : await stat(file).catch(() => null);
      if (root === null || !info?.isFile()) {
        if (cache.has(relativePath)) forget(relativePath);
        return null;
      }
      if (info.size > maxFileBytes)
        return load({ root, relativePath, file, mtimeMs: info.mtimeMs, size: info.size, compress: false });
      const cached = cache.get(relativePath);
      if (cached) {
        const entry = await cached;
        if (entry && entry.mtimeMs === info.mtimeMs && entry.size === info.size) {
          cache.delete(relativePath);
          cache.set(relativePath, cached);
          checkedAt.set(relativePath, now());
          return entry;
        }
        if (cache.get(relativePath) === cached) forget(relativePath);
      }
      // Concurrent first requests share one read and one compression.
      const pending = load({ root, relativePath, file, mtimeMs: info.mtimeMs, size: info.size });
      cache.set(relativePath, pending);
      const entry = await pending.catch((error: unknown) => {
        forget(relativePath);
        throw error;
      });
      if (entry && cache.get(relativePath) === pending && !sizes.has(relativePath)) keep(relativePath, entry);
      return entry;
    },
    get cachedBytes() {
      return cachedBytes;
    },
  };
}

/** Reads one file of the site (a symlink may not lead outside it), transformed when HTML, compressed when worth it. */
function fileReader(options: Pick<SiteFilesOptions, 'transformHtml'>) {
  return async function load({
    root,
    relativePath,
    file,
    mtimeMs,
    size,
    compress = true,
  }: {
    /** The site's root, its real path (symbolic links resolved) at the check. */
    root: string;
    relativePath: string;
    file: string;
    mtimeMs: number;
    size: number;
    compress?: boolean;
  }) {
    // A symlink inside the site must not lead outside it.
    const real = await realpath(file);
    if (real !== root && !real.startsWith(root + sep)) return null;
    const extension = extname(relativePath).toLowerCase();
    const read = await readFile(real);
    const identity =
      options.transformHtml && extension === '.html'
        ? Buffer.from(options.transformHtml(read.toString('utf8')))
        : read;
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
    const loaded: SiteFile = {
      path: relativePath,
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      mtimeMs,
      size,
      etag: `"${hash}"`,
      lastModified: new Date(Math.floor(mtimeMs / 1000) * 1000).toUTCString(),
      bodies: { identity },
    };
    if (compress && COMPRESSIBLE.has(extension)) await addCompressedBodies(loaded.bodies);
    return loaded;
  };
}

/** The brotli and gzip copies, each kept only when it is smaller; a small body is sent as it is. */
async function addCompressedBodies(bodies: SiteFile['bodies']): Promise<void> {
  const { identity } = bodies;
  if (identity.byteLength < MIN_COMPRESS_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        // Highest quality once per file; large files (search index of years) get a faster setting.
        [constants.BROTLI_PARAM_QUALITY]: identity.byteLength <= 256 * 1024 ? 11 : 6,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength,
      },
    }),
    gzipAsync(identity, { level: 9 }),
  ]);
  if (br.byteLength < identity.byteLength) bodies.br = br;
  if (gz.byteLength < identity.byteLength) bodies.gzip = gz;
}
