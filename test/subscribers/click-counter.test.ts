// Counting /r/ fetches: clicks, scanners apart (HEAD, scanner agents, a burst from one source, recorded-style),
// per-source rate limits, unique readers, and the batch written every second and at stop — into a real store.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import {
  type CountedFetch,
  createClickCounter,
  FLUSH_SLICE,
  FLUSH_SLICE_MAX,
} from '../../src/subscribers/click-counter.js';
import type { ClickLink } from '../../src/subscribers/click-tokens.js';
import { useTestStore } from '../support/database.js';
import { manualTimer } from '../support/manual-timer.js';

const EDITION = '2026-11-23';
const items = Array.from({ length: 12 }, (_, index) => `arxiv:2611.${String(index + 1).padStart(5, '0')}`);
const browser =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

function fetchOf(item: number, over: Partial<CountedFetch> & { subscriberId?: number } = {}): CountedFetch {
  const link: ClickLink = {
    edition: EDITION,
    revision: 1,
    channel: 'mail',
    keyTag: 'unused',
    subscriberId: over.subscriberId ?? null,
  };
  const { subscriberId: _id, ...rest } = over;
  return {
    link,
    itemKey: items[item]!,
    itemsInMail: 12,
    source: '198.51.100.7',
    method: 'GET',
    userAgent: browser,
    ...rest,
  };
}

describe('click counter', () => {
  const store = useTestStore();
  const counterOn = (perReader = false, perMinute = 30) => {
    const timer = manualTimer();
    const counter = createClickCounter({
      store: store(),
      perReader,
      perMinute,
      timer,
      today: () => ({
        day: '2026-11-24',
        at: new Date(Date.UTC(2026, 10, 24, 8) + timer.now()).toISOString(),
      }),
      log: silentLogger,
    });
    return { timer, counter };
  };
  const counts = async () =>
    Object.fromEntries(
      (await store().clicks.byItem(EDITION)).map((row) => [
        row.itemKey,
        [row.clicks, row.prefetched, row.uniqueReaders],
      ]),
    );

  it('two readers click two items while a gateway prefetches all twelve: the twelve are prefetched', async () => {
    const { timer, counter } = counterOn();
    // Recorded-style burst: a security gateway fetches every link of the mail within ~1.2 s of delivery.
    const verdicts = items.map((_, index) => {
      timer.advance(100);
      return counter.record(fetchOf(index, { source: '203.0.113.9', userAgent: browser }));
    });
    // The twelfth completes the set: it, and the eleven before it in the window, are prefetched.
    expect(verdicts.slice(0, 11)).toEqual(Array(11).fill('click'));
    expect(verdicts[11]).toBe('prefetched');
    timer.advance(30_000);
    counter.record(fetchOf(0, { source: '198.51.100.7' }));
    counter.record(fetchOf(3, { source: '198.51.100.7' }));
    timer.advance(60_000);
    counter.record(fetchOf(0, { source: '192.0.2.44' }));
    counter.record(fetchOf(3, { source: '192.0.2.44' }));
    await counter.stop();
    const stored = await counts();
    expect(stored[items[0]!]).toEqual([2, 1, null]);
    expect(stored[items[3]!]).toEqual([2, 1, null]);
    const prefetched = Object.values(stored).reduce((sum, [, p]) => sum + (p as number), 0);
    const clicks = Object.values(stored).reduce((sum, [c]) => sum + (c as number), 0);
    expect(prefetched).toBe(12);
    expect(clicks).toBe(4);
  });

  it('HEAD requests and known scanner agents are prefetched on their own', async () => {
    const { counter } = counterOn();
    expect(counter.record(fetchOf(1, { method: 'HEAD' }))).toBe('prefetched');
    expect(counter.record(fetchOf(1, { userAgent: 'Mozilla/5.0 (compatible; Barracuda Sentinel)' }))).toBe(
      'prefetched',
    );
    expect(
      counter.record(
        fetchOf(1, { userAgent: 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0)' }),
      ),
    ).toBe('prefetched');
    expect(counter.record(fetchOf(1))).toBe('click');
    await counter.stop();
    expect((await counts())[items[1]!]).toEqual([1, 3, null]);
  });

  it('a reader opening six of twelve items in tabs within five seconds, or eleven in one second, keeps every click', async () => {
    const { timer, counter } = counterOn();
    const tabs = [0, 2, 4, 6, 8, 10].map((item) => {
      timer.advance(800);
      return counter.record(fetchOf(item, { source: '198.51.100.30', userAgent: browser }));
    });
    expect(tabs).toEqual(Array(6).fill('click'));
    timer.advance(10_000);
    const quick = items.slice(0, 11).map((_, item) => {
      timer.advance(50);
      return counter.record(fetchOf(item, { source: '198.51.100.31', userAgent: browser }));
    });
    expect(quick).toEqual(Array(11).fill('click'));
    await counter.stop();
    const stored = await counts();
    const total = Object.values(stored).reduce((sum, [c]) => sum + (c as number), 0);
    expect(total).toBe(17);
  });

  it('a reader opening three of twelve items at once stays a reader; one source over its limit is not counted', async () => {
    const { timer, counter } = counterOn(false, 5);
    for (const item of [2, 5, 7]) {
      timer.advance(400);
      expect(counter.record(fetchOf(item))).toBe('click');
    }
    timer.advance(10_000);
    // A flood from one address: five counted a minute at most (analytics.perMinute), the rest only redirected.
    const flood = Array.from({ length: 50 }, () => counter.record(fetchOf(9, { source: '192.0.2.200' })));
    expect(flood.filter((verdict) => verdict !== 'limited')).toHaveLength(5);
    await counter.stop();
    const stored = await counts();
    expect(stored[items[2]!]).toEqual([1, 0, null]);
    const [clicks, prefetched] = stored[items[9]!] as [number, number];
    expect(clicks + prefetched).toBe(5);
  });

  it('writes counts at once, reader rows after their burst window, the rest at stop; per-reader repeats count once', async () => {
    const { timer, counter } = counterOn(true);
    const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    counter.record(fetchOf(4, { subscriberId: ada.id }));
    timer.advance(1_000);
    counter.record(fetchOf(4, { subscriberId: ada.id }));
    await counter.flush();
    // Counts are written at once; the reader row waits out its burst window (2 s).
    expect((await counts())[items[4]!]).toEqual([2, 0, null]);
    timer.advance(3_000);
    await counter.flush();
    expect((await counts())[items[4]!]).toEqual([2, 0, 1]);
    expect(counter.held()).toMatchObject({ tallies: 0, readers: 0 });
    await counter.stop();
    expect(await store().clicks.forSubscriber(ada.id)).toHaveLength(1);
  });

  it('writes a large batch in slices, the event loop turning between them (PGlite runs on the redirect thread)', async () => {
    const slices: number[] = [];
    const real = store().clicks;
    const counter = createClickCounter({
      store: {
        clicks: {
          ...real,
          add: (tallies, readers) => {
            slices.push(tallies.length);
            return real.add(tallies, readers);
          },
        },
      },
      perReader: false,
      perMinute: 30,
      timer: manualTimer(),
      today: () => ({ day: '2026-11-24', at: '2026-11-24T08:00:00.000Z' }),
      log: silentLogger,
    });
    // 200 items, each clicked once by a reader of its own: 200 keys waiting.
    for (let index = 0; index < 200; index++)
      counter.record({
        ...fetchOf(0),
        itemKey: `url:https://example.com/${index}`,
        source: `10.0.${index}.1`,
      });
    let turns = 0;
    let writing = true;
    const spin = () => {
      turns++;
      if (writing) setImmediate(spin);
    };
    setImmediate(spin);
    await counter.flush();
    writing = false;
    // The first slice small; each next one at most twice the last (sized by how long the last took), all 200 written.
    expect(slices[0]).toBe(FLUSH_SLICE);
    expect(slices.length).toBeGreaterThan(1);
    for (const [index, size] of slices.entries()) {
      expect(size).toBeLessThanOrEqual(Math.min(FLUSH_SLICE_MAX, FLUSH_SLICE * 2 ** index));
    }
    expect(slices.reduce((sum, size) => sum + size, 0)).toBe(200);
    expect(turns).toBeGreaterThanOrEqual(slices.length - 1);
    const stored = await store().clicks.byItem(EDITION);
    expect(stored.reduce((sum, row) => sum + row.clicks, 0)).toBe(200);
    await counter.stop();
  });

  it('a long write keeps the clock going and no queue of writes: one waits, and takes all that came meanwhile', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const written: number[] = [];
    const real = store().clicks;
    const timer = manualTimer();
    const counter = createClickCounter({
      store: {
        clicks: {
          ...real,
          add: async (tallies, readers) => {
            written.push(tallies.reduce((sum, tally) => sum + tally.clicks, 0));
            await gate;
            return real.add(tallies, readers);
          },
        },
      },
      perReader: false,
      perMinute: 30,
      timer,
      today: () => ({ day: '2026-11-24', at: '2026-11-24T08:00:00.000Z' }),
      log: silentLogger,
    });
    counter.record(fetchOf(0));
    // The first write starts, and hangs (a slow database).
    timer.advance(1_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([1]);
    for (let second = 0; second < 5; second++) {
      counter.record(fetchOf(1, { source: `10.0.0.${second}` }));
      timer.advance(1_000);
      // Still every second, though the write has not ended.
      expect(timer.pending).toBe(1);
    }
    // Five ticks and these two asks: one write waits, the same for all.
    expect(counter.flush()).toBe(counter.flush());
    release();
    await counter.flush();
    expect(written).toEqual([1, 5]);
    expect((await counts())[items[1]!]).toEqual([5, 0, null]);
    await counter.stop();
  });

  it('folds the reader rows it wrote in slices, the event loop turning between them; a new counter folds what was left', async () => {
    const readers = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        store().subscribers.put(`r${index}@example.com`, `r${index}@example.com`, 'confirmed'),
      ),
    );
    const real = store().clicks;
    const folds: number[] = [];
    const watched = {
      clicks: {
        ...real,
        fold: (limit: number) => {
          folds.push(limit);
          return real.fold(limit);
        },
      },
    };
    const timer = manualTimer();
    const options = {
      store: watched,
      perReader: true,
      perMinute: 1_000,
      timer,
      today: () => ({ day: '2026-11-24', at: '2026-11-24T08:00:00.000Z' }),
      log: silentLogger,
    };
    // A stopped counter leaves its last rows incoming.
    const first = createClickCounter(options);
    await first.folded();
    for (const [index, reader] of readers.entries())
      first.record(fetchOf(index % 12, { subscriberId: reader.id, source: `10.1.${index}.1` }));
    await first.stop();
    expect(await store().clicks.forSubscriber(readers[0]!.id)).toHaveLength(1);
    folds.length = 0;
    const second = createClickCounter(options);
    let turns = 0;
    let folding = true;
    const spin = () => {
      turns++;
      if (folding) setImmediate(spin);
    };
    setImmediate(spin);
    await second.folded();
    folding = false;
    // Slices from FLUSH_SLICE up, the last finding none left; the event loop turned between them.
    expect(folds[0]).toBe(FLUSH_SLICE);
    expect(folds.length).toBeGreaterThan(2);
    expect(turns).toBeGreaterThanOrEqual(folds.length - 1);
    expect(await real.fold(1_000)).toEqual({ taken: 0, left: false });
    // Written by the second counter, folded after its write.
    second.record(fetchOf(0, { subscriberId: readers[1]!.id, source: '10.2.0.1' }));
    timer.advance(10_000);
    await second.flush();
    await second.folded();
    expect(await real.fold(1_000)).toEqual({ taken: 0, left: false });
    expect(await store().clicks.forSubscriber(readers[1]!.id)).toHaveLength(2);
    expect(
      (await store().clicks.byItem(EDITION)).reduce((sum, row) => sum + (row.uniqueReaders ?? 0), 0),
    ).toBe(301);
    await second.stop();
  });
});
