// Scanners are not readers. Mail security gateways fetch every link of a mail seconds after it
// arrives; counting those as clicks would make every item look read. A fetch of /r/ is "prefetched", not a click,
// when any of these holds:
//   1. it is a HEAD request (a browser following a link sends GET);
//   2. its User-Agent names a known scanner or link-preview bot (SCANNER_AGENTS, a short list);
//   3. one source address has fetched EVERY item link of one mail (at least BURST_MIN) within BURST_WINDOW_MS (2 s):
//      what a gateway does on delivery and no hand can. The fetch that completes the set, those after it in the
//      window, and those before it in the window (their clicks are moved over) are all prefetched.
// "One mail" is one edition, revision and channel (and reader, for per-reader links); a reader opening some of the
// items in tabs — six of twelve within five seconds — stays a reader, every one counted. The window is kept per
// source in memory, bounded (MAX_SOURCES sources, MAX_FETCHES fetches each) and emptied as it ages, so a flood of
// addresses cannot grow it.

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

export const BURST_WINDOW_MS = 2_000;
export const BURST_MIN = 2;
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

/** Distinct items of one mail one source must fetch within the window to be a scanner: all of them. */
export function burstMark(itemsInMail: number): number {
  return Math.max(BURST_MIN, itemsInMail);
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
 * One source's window: its fetches in time order, and how many of them name each item of each mail — kept as
 * fetches come and go, so whether a fetch reaches the mark is one look-up, not a pass over the window (it runs on
 * every counted fetch).
 */
interface SourceWindow<T> {
  fetches: WindowFetch<T>[];
  /** mail → item → fetches of it in the window */
  items: Map<string, Map<string, number>>;
}

function remember<T>(window: SourceWindow<T>, fetch: WindowFetch<T>): void {
  let items = window.items.get(fetch.mail);
  if (!items) {
    items = new Map();
    window.items.set(fetch.mail, items);
  }
  items.set(fetch.item, (items.get(fetch.item) ?? 0) + 1);
}

/** Takes fetches that left the window out of its item counts; returns them. */
function forget<T>(window: SourceWindow<T>, gone: WindowFetch<T>[]): WindowFetch<T>[] {
  for (const fetch of gone) {
    const items = window.items.get(fetch.mail)!;
    const left = items.get(fetch.item)! - 1;
    if (left > 0) items.set(fetch.item, left);
    else if (items.delete(fetch.item) && items.size === 0) window.items.delete(fetch.mail);
  }
  return gone;
}

export function createBurstWindows<T>(): BurstWindows<T> {
  // Insertion order is use order (a source re-inserted on each fetch): the first is the least recently seen.
  const windows = new Map<string, SourceWindow<T>>();
  const expire = (window: SourceWindow<T>, now: number) => {
    const { fetches } = window;
    let keep = 0;
    while (keep < fetches.length && now - fetches[keep]!.at >= BURST_WINDOW_MS) keep++;
    return forget(window, fetches.splice(0, keep));
  };
  return {
    add(source, fetch, itemsInMail) {
      const window: SourceWindow<T> = windows.get(source) ?? { fetches: [], items: new Map() };
      windows.delete(source);
      const { fetches } = window;
      const released = expire(window, fetch.at);
      const entry: WindowFetch<T> = { ...fetch, prefetched: false };
      fetches.push(entry);
      remember(window, entry);
      if (fetches.length > MAX_FETCHES)
        released.push(...forget(window, fetches.splice(0, fetches.length - MAX_FETCHES)));
      const burst = (window.items.get(fetch.mail)?.size ?? 0) >= burstMark(itemsInMail);
      const reclassified: WindowFetch<T>[] = [];
      if (burst) {
        for (const seen of fetches) {
          if (seen.mail !== fetch.mail) continue;
          if (seen !== entry && !seen.prefetched) reclassified.push(seen);
          seen.prefetched = true;
        }
      }
      windows.set(source, window);
      while (windows.size > MAX_SOURCES) {
        const oldest = windows.keys().next().value!;
        released.push(...(windows.get(oldest)?.fetches ?? []));
        windows.delete(oldest);
      }
      return { burst, reclassified, released: released.filter((seen) => !seen.prefetched) };
    },
    release(now, everything = false) {
      const out: WindowFetch<T>[] = [];
      // Everything goes: no window's item counts to keep up to date (a pass over every fetch's maps, which at a
      // list's size would hold the event loop at shutdown).
      if (everything) {
        for (const window of windows.values())
          for (const fetch of window.fetches) if (!fetch.prefetched) out.push(fetch);
        windows.clear();
        return out;
      }
      for (const [source, window] of windows) {
        out.push(...expire(window, now));
        if (window.fetches.length === 0) windows.delete(source);
      }
      return out.filter((seen) => !seen.prefetched);
    },
    get sources() {
      return windows.size;
    },
  };
}
