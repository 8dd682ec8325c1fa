// Scanners are not readers (issue 33, point 2). Mail security gateways fetch every link of a mail seconds after it
// arrives; counting those as clicks would make every item look read. A fetch of /r/ is "prefetched", not a click,
// when any of these holds:
//   1. it is a HEAD request (a browser following a link sends GET);
//   2. its User-Agent names a known scanner or link-preview bot (SCANNER_AGENTS, a short list);
//   3. one source address has fetched BURST_SHARE (half) or more of one mail's item links — at least BURST_MIN
//      distinct items — within BURST_WINDOW_MS (5 s). The fetch that reaches the mark, those after it in the window,
//      and those before it in the window (their clicks are moved over) are all prefetched.
// "One mail" is one edition, revision and channel (and reader, for per-reader links); a reader opening two or three
// of twelve items within five seconds stays a reader. The window is kept per source in memory, bounded (MAX_SOURCES
// sources, MAX_FETCHES fetches each), so a flood of addresses cannot grow it.

/** User agents of mail security scanners and link-preview fetchers, matched case-insensitively. */
export const SCANNER_AGENTS = [
  'barracuda',
  'mimecast',
  'proofpoint',
  'messagelabs',
  'symantec',
  'forcepoint',
  'trendmicro',
  'safelinks',
  'ms-office',
  'microsoft office',
  'bingpreview',
  'googleimageproxy',
  'google-safety',
  'yahoomailproxy',
  'fortiguard',
  'sophos',
  'ironport',
  'zscaler',
  'slackbot',
  'facebookexternalhit',
  'twitterbot',
  'linkedinbot',
  'discordbot',
  'whatsapp',
  'skypeuripreview',
  'python-requests',
  'go-http-client',
];

export const BURST_WINDOW_MS = 5_000;
export const BURST_SHARE = 0.5;
export const BURST_MIN = 3;
const MAX_SOURCES = 10_000;
const MAX_FETCHES = 64;

const AGENT_PATTERN = new RegExp(
  SCANNER_AGENTS.map((agent) => agent.replace(/[-.]/g, '\\$&')).join('|'),
  'i',
);

/** Whether the request itself says it is not a reader: HEAD, or a scanner's user agent. */
export function isScannerRequest(method: string, userAgent: string | undefined): boolean {
  return method.toUpperCase() === 'HEAD' || AGENT_PATTERN.test(userAgent ?? '');
}

/** Distinct items of one mail one source must fetch within the window to be a scanner. */
export function burstMark(itemsInMail: number): number {
  return Math.max(BURST_MIN, Math.ceil(itemsInMail * BURST_SHARE));
}

/** One fetch the burst window remembers; `prefetched` flips when a burst is found. */
export interface WindowFetch<T> {
  mail: string;
  item: string;
  at: number;
  prefetched: boolean;
  payload: T;
}

export interface BurstWindows<T> {
  /**
   * Adds a fetch from `source` and says whether it is part of a burst. `reclassified` are the earlier fetches in
   * the window that were clicks and are prefetched now; `released` are fetches that left the window (or the bounded
   * memory) still as clicks, for the caller to settle.
   */
  add(source: string, fetch: Omit<WindowFetch<T>, 'prefetched'>, itemsInMail: number): BurstVerdict<T>;
  /** Fetches older than the window (all with `everything`), which stay what they are. */
  release(now: number, everything?: boolean): WindowFetch<T>[];
  readonly sources: number;
}

export interface BurstVerdict<T> {
  burst: boolean;
  reclassified: WindowFetch<T>[];
  released: WindowFetch<T>[];
}

/**
 * Whether the window holds `mark` distinct items of `mail`. Runs on every counted fetch: one pass, no allocation
 * beyond the few distinct items it has seen (it stops at the mark), so a reader clicking one link many times costs
 * a short loop, not a set of the whole window.
 */
function reachesMark(fetches: WindowFetch<unknown>[], mail: string, mark: number): boolean {
  const seen: string[] = [];
  for (const fetch of fetches) {
    if (fetch.mail !== mail || seen.includes(fetch.item)) continue;
    seen.push(fetch.item);
    if (seen.length >= mark) return true;
  }
  return false;
}

export function createBurstWindows<T>(): BurstWindows<T> {
  // Insertion order is use order (a source re-inserted on each fetch): the first is the least recently seen.
  const windows = new Map<string, WindowFetch<T>[]>();
  const expire = (fetches: WindowFetch<T>[], now: number) => {
    let keep = 0;
    while (keep < fetches.length && now - fetches[keep]!.at >= BURST_WINDOW_MS) keep++;
    return fetches.splice(0, keep);
  };
  return {
    add(source, fetch, itemsInMail) {
      const fetches = windows.get(source) ?? [];
      windows.delete(source);
      const released = expire(fetches, fetch.at);
      const entry: WindowFetch<T> = { ...fetch, prefetched: false };
      fetches.push(entry);
      if (fetches.length > MAX_FETCHES) released.push(...fetches.splice(0, fetches.length - MAX_FETCHES));
      const burst = reachesMark(fetches, fetch.mail, burstMark(itemsInMail));
      const reclassified: WindowFetch<T>[] = [];
      if (burst) {
        for (const seen of fetches) {
          if (seen.mail !== fetch.mail) continue;
          if (seen !== entry && !seen.prefetched) reclassified.push(seen);
          seen.prefetched = true;
        }
      }
      windows.set(source, fetches);
      while (windows.size > MAX_SOURCES) {
        const oldest = windows.keys().next().value!;
        released.push(...(windows.get(oldest) ?? []));
        windows.delete(oldest);
      }
      return { burst, reclassified, released: released.filter((seen) => !seen.prefetched) };
    },
    release(now, everything = false) {
      const out: WindowFetch<T>[] = [];
      for (const [source, fetches] of windows) {
        out.push(...(everything ? fetches.splice(0) : expire(fetches, now)));
        if (fetches.length === 0) windows.delete(source);
      }
      return out.filter((seen) => !seen.prefetched);
    },
    get sources() {
      return windows.size;
    },
  };
}
