// Item images are fetched once at build/publish time and published with the site, so no reader's browser or mail
// client ever calls an image host, and the page policy can say img-src 'self'. A failure is a warning, never a
// failed build: that item simply shows no image.
import { createHash } from 'node:crypto';
import { errorMessage } from '../core/errors.js';
import type { HttpClient, Logger } from '../core/ports.js';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { safeUrl } from '../core/urls.js';
import { sniffImage } from './_image-sniff.js';

/** An image published with the site. */
export interface LocalImage {
  /** Site-relative path, `img/<hash>.<ext>`. */
  path: string;
  width: number | null;
  height: number | null;
}

/** Item image URL (as stored on the item) → the published copy. Items whose URL is missing here show no image. */
export type ImageMap = ReadonlyMap<string, LocalImage>;

export interface FetchImagesOptions {
  /** The guarded client: every image URL is untrusted (it came from a feed or a page). */
  http: HttpClient;
  log?: Logger;
  /** Largest image accepted (default 2 MB). */
  maxBytes?: number;
  /** Per-image time limit (default 15 s). */
  timeoutMs?: number;
  /** Images fetched at once (default 4). */
  concurrency?: number;
}

export interface FetchedImages {
  images: ImageMap;
  /** Site-relative path → bytes, to write with the site. */
  files: Map<string, Uint8Array>;
  warnings: string[];
}

export const IMAGE_DEFAULTS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 15_000, concurrency: 4 } as const;

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp;q=0.9';

/** Every distinct image URL of the editions, fetched once each, checked by its bytes and named by their hash. */
export async function fetchItemImages(
  editions: readonly Edition[],
  options: FetchImagesOptions,
): Promise<FetchedImages> {
  const urls = [...new Set(editions.flatMap((edition) => edition.items.map((item) => item.image)))].filter(
    (url): url is string => !!url,
  );
  const images = new Map<string, LocalImage>();
  const files = new Map<string, Uint8Array>();
  const warnings: string[] = [];
  const failures: string[] = [];
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const result = await fetchImage(url, options);
      if (typeof result === 'string') {
        warnings.push(`image ${shortUrl(url)} not published: ${result}`);
        failures.push(result);
        continue;
      }
      images.set(url, result.image);
      files.set(result.image.path, result.bytes);
    }
  };
  const concurrency = Math.max(1, options.concurrency ?? IMAGE_DEFAULTS.concurrency);
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  if (options.log) reportFailures(options.log, warnings.sort(), failures);
  // Workers finish in any order; sorted maps keep the output the same from run to run.
  return {
    images: new Map([...images].sort(([a], [b]) => compareText(a, b))),
    files: new Map([...files].sort(([a], [b]) => compareText(a, b))),
    warnings: warnings.sort(),
  };
}

/**
 * One line for a site's worth of failed images (a machine without network would otherwise print one per item): the
 * count by reason, each image's own line at --verbose. A single failure keeps its own line.
 */
function reportFailures(log: Logger, warnings: readonly string[], reasons: readonly string[]): void {
  if (warnings.length === 0) return;
  if (warnings.length === 1) {
    log.warn(warnings[0]!);
    return;
  }
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    // The same failure at other addresses is one reason: each address is in its own --verbose line.
    const general = reason.replace(/https?:\/\/\S+?(?=:\s|\s|$)/g, '…');
    counts.set(general, (counts.get(general) ?? 0) + 1);
  }
  const byReason = [...counts]
    .map(([reason, count]) => (count > 1 ? `${reason} ×${count}` : reason))
    .join(' · ');
  log.warn(
    `${warnings.length} item images not published (${byReason}): those items show no image; --verbose lists each.`,
  );
  for (const warning of warnings) log.debug(warning);
}

/** The published image, or why there is none. */
async function fetchImage(
  url: string,
  options: FetchImagesOptions,
): Promise<{ image: LocalImage; bytes: Uint8Array } | string> {
  const target = safeUrl(url);
  if (!target) return 'not an http(s) URL';
  let body: Buffer;
  try {
    const response = await options.http.request({
      url: target,
      trusted: false,
      headers: { accept: ACCEPT },
      maxBytes: options.maxBytes ?? IMAGE_DEFAULTS.maxBytes,
      timeoutMs: options.timeoutMs ?? IMAGE_DEFAULTS.timeoutMs,
    });
    body = response.body;
  } catch (error) {
    return errorMessage(error);
  }
  const sniffed = sniffImage(body);
  if (!sniffed) return 'not a PNG, JPEG, GIF or WebP image';
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 24);
  return {
    image: {
      path: `img/${hash}.${sniffed.type === 'jpeg' ? 'jpg' : sniffed.type}`,
      width: sniffed.width,
      height: sniffed.height,
    },
    bytes: body,
  };
}

function shortUrl(url: string): string {
  return url.length > 120 ? `${url.slice(0, 117)}…` : url;
}
