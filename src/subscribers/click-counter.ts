// Counting /r/ fetches without delaying the answer: each fetch is classified (click, prefetched, or not counted past
// the source's rate limit) and added to an in-memory batch, which a timer writes every second through
// `store.clicks.add` (and once more when the service stops). A crash loses at most the last second of counts —
// during a long write, that write's batch and what came meanwhile — and the reader rows still inside their burst
// window (5 s). The batch is bounded: it is summed per (edition, revision,
// item, channel, day), and past MAX_PENDING keys it is written at once — in slices of FLUSH_SLICE rows with a turn of
// the event loop between them, so a large write never holds the redirects for long (PGlite runs on this thread).
// Reader rows are written as they came (the store's incoming table) and folded into the reader table after each
// write, in slices of their own (store/reader-clicks-incoming.ts): a list's burst is durable in the time its rows
// take to write, and the dearer work of keeping each reader's first click follows at the same gentle pace.

import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Timer } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { createRateLimiter } from '../core/rate-limiter.js';
import type { ClickTally, ReaderClick } from '../store/clicks.js';
import type { Store } from '../store/types.js';
import type { ClickLink } from './click-tokens.js';
import { createBurstWindows, isScannerRequest, type WindowFetch } from './scanner-rule.js';

export const FLUSH_EVERY_MS = 1_000;
const MAX_PENDING = 20_000;

/** One fetch of /r/ whose token was good and whose item was found. */
export interface CountedFetch {
  link: ClickLink;
  itemKey: string;
  /** Items in that revision: the burst rule's "most of one mail's links". */
  itemsInMail: number;
  /** The client address (the proxy's X-Forwarded-For with server.trustProxy). */
  source: string;
  method: string;
  userAgent: string | undefined;
}

export type FetchVerdict = 'click' | 'prefetched' | 'limited';

export interface ClickCounter {
  /** Classifies and batches a fetch; never waits. */
  record(fetch: CountedFetch): FetchVerdict;
  /** Writes the batch now, with the reader rows past their burst window (the timer does it every second). */
  flush(): Promise<void>;
  /**
   * Stops the timer and writes everything still held, reader rows in their window too. Rows not yet folded stay in
   * the incoming table; the next counter on this store folds them when it starts.
   */
  stop(): Promise<void>;
  /** Resolves once the reader rows written so far are folded (or a fold failed; the next write tries again). */
  folded(): Promise<void>;
  /** Keys held in memory (batch, reader rows, sources in the burst window, rate-limited sources). */
  held(): { tallies: number; readers: number; sources: number; limited: number };
}

export interface ClickCounterOptions {
  store: { clicks: Pick<Store['clicks'], 'add' | 'fold'> };
  /** Per-reader mode: keep which reader clicked (their tokens name them). */
  perReader: boolean;
  /** Counted fetches per client address per minute (analytics.perMinute). */
  perMinute: number;
  timer: Timer;
  /** Today's date (YYYY-MM-DD, UTC) and the time now (ISO 8601), from the clock port. */
  today: () => { day: string; at: string };
  log: Logger;
}

interface Held {
  tally: Omit<ClickTally, 'clicks' | 'prefetched'>;
  reader: ReaderClick | null;
}

export function createClickCounter(options: ClickCounterOptions): ClickCounter {
  const { timer } = options;
  const limiter = createRateLimiter({
    capacity: options.perMinute,
    refillMs: Math.ceil(60_000 / options.perMinute),
    maxKeys: 10_000,
    now: () => timer.now(),
  });
  const windows = createBurstWindows<Held>();
  // "One mail" of the burst rule, once per link: the redirect hands the same link for the same token, so the window
  // compares the very same string (no per-fetch string to build and compare character by character). A reader's
  // link is not remembered: each reader's token is their own, so a list's clicks would fill the WeakMap with an
  // entry each — entries the garbage collector must trace one by one in every young-generation pass.
  const mails = new WeakMap<ClickLink, string>();
  const mailOf = (link: ClickLink) => {
    const reader = options.perReader ? link.subscriberId : null;
    if (reader !== null) return `${link.edition}|${link.revision}|${link.channel}|${reader}`;
    let mail = mails.get(link);
    if (mail === undefined) {
      mail = `${link.edition}|${link.revision}|${link.channel}|`;
      mails.set(link, mail);
    }
    return mail;
  };
  const batch = clickBatch(options, () => fold.start());
  const fold = incomingFold(options, batch.written);
  let stopped = false;
  const flush = () => {
    batch.settle(windows.release(timer.now()));
    return batch.flush();
  };
  // Every second, whether or not the last write has ended: a long write (thousands of keys under load) must not
  // leave what came meanwhile waiting for it and a second more. A write asked while another waits joins it.
  const tick = () => {
    if (stopped) return;
    cancel = timer.after(FLUSH_EVERY_MS, tick);
    void flush();
  };
  let cancel = timer.after(FLUSH_EVERY_MS, tick);
  // What an earlier counter on this store (a crash, a stop, per-reader mode turned off since) left to fold.
  fold.start();

  return {
    record(fetch) {
      if (!limiter.take(fetch.source).allowed) return 'limited';
      const { day, at } = options.today();
      const { link, itemKey } = fetch;
      const item = { edition: link.edition, revision: link.revision, itemKey, channel: link.channel };
      const tally = { ...item, day };
      if (isScannerRequest(fetch.method, fetch.userAgent)) {
        batch.count(tally, 0, 1);
        return 'prefetched';
      }
      const subscriberId = options.perReader ? link.subscriberId : null;
      const reader = subscriberId === null ? null : { ...item, subscriberId, at };
      const verdict = windows.add(
        fetch.source,
        { mail: mailOf(link), item: itemKey, at: timer.now(), payload: { tally, reader } },
        fetch.itemsInMail,
      );
      // A burst found now: the same source's earlier fetches of this mail were a scanner's too.
      for (const earlier of verdict.reclassified) batch.count(earlier.payload.tally, -1, 1);
      batch.settle(verdict.released);
      batch.count(tally, verdict.burst ? 0 : 1, verdict.burst ? 1 : 0);
      return verdict.burst ? 'prefetched' : 'click';
    },
    flush,
    async stop() {
      stopped = true;
      cancel();
      await fold.stop();
      batch.settle(windows.release(timer.now(), true));
      await batch.flush();
    },
    folded: () => batch.written().then(fold.settled),
    held: () => ({ ...batch.held(), sources: windows.sources, limited: limiter.size }),
  };
}

/**
 * Rows the first write of a flush takes. With PGlite the database runs on the thread that answers /r/, so a write of
 * thousands of rows would hold every redirect behind it: the batch goes in slices, each its own transaction
 * (counts add up, so a slice written before a crash is simply counted), with a turn of the event loop between them.
 * Each next slice is sized from how long the last one held the thread — its busy time, not its wall time — to hold
 * it about SLICE_TARGET_MS: a loaded machine gets small slices, an idle one large ones, and a PostgreSQL server,
 * whose work is not on this thread, the largest at once (sized by their round trips, a flush of a whole list spent
 * most of its time waiting for them). The largest stays at FLUSH_SLICE_MAX even so: a slice's rows are still
 * gathered and encoded on this thread.
 */
export const FLUSH_SLICE = 32;
export const FLUSH_SLICE_MAX = 1_000;
const SLICE_TARGET_MS = 8;

/**
 * A fold's slice holds the thread for less: a row's cost there swings more (each reads the reader table's indexes,
 * some pages of them not cached), and a slice three times its target must still be a short hold.
 */
const FOLD_TARGET_MS = 4;

/** The next slice's rows: the last slice's rate over the target time, within FLUSH_SLICE…FLUSH_SLICE_MAX. */
function nextSliceSize(rows: number, heldMs: number, targetMs = SLICE_TARGET_MS): number {
  const fitting = Math.floor((rows * targetMs) / Math.max(heldMs, 0.5));
  // At most double at a time: one quick slice (a warm cache) does not earn a long one.
  return Math.min(FLUSH_SLICE_MAX, rows * 2, Math.max(FLUSH_SLICE, fitting));
}

/** How long the event loop was busy since `from` (performance.eventLoopUtilization): time spent waiting is not. */
const busySince = (from: EventLoopUtilization) => performance.eventLoopUtilization(from).active;

/** One key per (edition, revision, item, channel, day); the item key, the only free text, last. */
const tallyKey = (tally: Held['tally']) =>
  `${tally.day}|${tally.edition}|${tally.revision}|${tally.channel}|${tally.itemKey}`;

/** The counts and reader rows waiting for the next write, summed per key; written one batch at a time. */
function clickBatch(options: Pick<ClickCounterOptions, 'store' | 'log'>, readersWritten: () => void) {
  let tallies = new Map<string, ClickTally>();
  let readers: ReaderClick[] = [];
  let writing: Promise<void> = Promise.resolve();
  const count = (tally: Held['tally'], clicks: number, prefetched: number) => {
    const key = tallyKey(tally);
    const held = tallies.get(key);
    if (held) {
      held.clicks += clicks;
      held.prefetched += prefetched;
    } else tallies.set(key, { ...tally, clicks, prefetched });
    if (tallies.size + readers.length > MAX_PENDING) void flush();
  };
  // A write that failed: back into the batch, summed with what came meanwhile (memory stays bounded by the keys).
  const keep = (batch: ClickTally[], rows: ReaderClick[], error: unknown) => {
    options.log.warn(`clicks: ${batch.length} counts kept for the next write: ${errorMessage(error)}`);
    for (const tally of batch) if (tallies.size < MAX_PENDING) count(tally, tally.clicks, tally.prefetched);
    if (readers.length < MAX_PENDING) readers.push(...rows);
  };
  const write = async (batch: ClickTally[], rows: ReaderClick[]) => {
    const total = Math.max(batch.length, rows.length);
    let size = FLUSH_SLICE;
    for (let start = 0; start < total; ) {
      if (start > 0) await nextTurn();
      const end = start + size;
      const began = performance.eventLoopUtilization();
      try {
        await options.store.clicks.add(batch.slice(start, end), rows.slice(start, end));
      } catch (error) {
        return keep(batch.slice(start), rows.slice(start), error);
      }
      size = nextSliceSize(size, busySince(began));
      start = end;
    }
    if (rows.length > 0) readersWritten();
  };
  // The write waiting for its turn, if any: a flush asked meanwhile (the timer, or every count past MAX_PENDING
  // while a long write runs) joins it instead of queueing one more, since it takes the whole batch when it starts.
  let waiting: Promise<void> | null = null;
  const flush = () => {
    if (waiting) return waiting;
    const next = writing.then(() => {
      waiting = null;
      const batch = [...tallies.values()];
      const rows = readers;
      tallies = new Map();
      readers = [];
      return write(batch, rows);
    });
    waiting = next;
    writing = next;
    return next;
  };
  return {
    count,
    flush,
    /** Fetches that left the burst window as clicks: their reader rows join the batch. */
    settle(fetches: WindowFetch<Held>[]) {
      for (const fetch of fetches) if (fetch.payload.reader) readers.push(fetch.payload.reader);
    },
    held: () => ({ tallies: tallies.size, readers: readers.length }),
    /** Resolves when the writes asked so far have ended. */
    written: () => writing,
  };
}

/**
 * Folds the store's incoming reader rows, a slice at a time with a turn of the event loop between slices (sized as
 * the write's are), until none are left. A write of the batch goes first: each slice waits for the one under way,
 * so counts wait for no fold. Asked while it runs, it goes round once more rather than starting a second loop: rows
 * written just as it found none are not left for the next write.
 */
function incomingFold(options: Pick<ClickCounterOptions, 'store' | 'log'>, written: () => Promise<void>) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const loop = async () => {
    let size = FLUSH_SLICE;
    while (!stopped) {
      await written();
      const began = performance.eventLoopUtilization();
      let left: boolean;
      try {
        ({ left } = await options.store.clicks.fold(size));
      } catch (error) {
        options.log.warn(`clicks: reader rows left to fold after the next write: ${errorMessage(error)}`);
        return;
      }
      if (!left) {
        if (!again) return;
        again = false;
      } else size = nextSliceSize(size, busySince(began), FOLD_TARGET_MS);
      await nextTurn();
    }
  };
  return {
    start() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = loop().finally(() => {
        running = null;
      });
    },
    settled: async () => {
      await running;
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
