// The burst rule's window on its own: distinct items per mail as fetches come and leave the window, a reader
// clicking one link over and over (more than the window keeps) stays a reader, and another mail's fetches from the
// same address do not add up with this one's.
import { describe, expect, it } from 'vitest';
import { BURST_WINDOW_MS, createBurstWindows } from '../../src/subscribers/scanner-rule.js';

const SOURCE = '198.51.100.20';

describe('burst windows', () => {
  it('counts distinct items of one mail within the window, forgetting those that left it: a burst is all of them', () => {
    const windows = createBurstWindows<number>();
    const add = (mail: string, item: number, at: number) =>
      windows.add(SOURCE, { mail, item: `item-${item}`, at, payload: item }, 12).burst;
    // Eleven of twelve items (the mark is all twelve), then the same again: still eleven distinct.
    for (let item = 0; item < 11; item++) expect(add('m1', item, item * 10)).toBe(false);
    for (let item = 0; item < 11; item++) expect(add('m1', item, 200 + item * 10)).toBe(false);
    // Another mail's items from the same address are another count.
    for (let item = 0; item < 12; item++) expect(add('m2', item, 400)).toBe(item === 11);
    // The first ones left the window: the twelfth alone is no burst.
    expect(add('m1', 11, 400 + BURST_WINDOW_MS)).toBe(false);
    // All twelve again within the window reach the mark at the last.
    const burst = Array.from({ length: 11 }, (_, item) => add('m1', item, 500 + BURST_WINDOW_MS));
    expect(burst).toEqual([...Array(10).fill(false), true]);
  });

  it('one link clicked a hundred times in the window stays a click, and every fetch is released as one', () => {
    const windows = createBurstWindows<number>();
    let released = 0;
    for (let n = 0; n < 100; n++) {
      const verdict = windows.add(SOURCE, { mail: 'm', item: 'only', at: n * 10, payload: n }, 12);
      expect(verdict.burst).toBe(false);
      released += verdict.released.length;
    }
    released += windows.release(10_000).length;
    expect(released).toBe(100);
    expect(windows.sources).toBe(0);
  });

  it('releasing everything (a stop) gives every fetch still a click, none of a burst, and empties the windows', () => {
    const windows = createBurstWindows<string>();
    // A burst from one address (all twelve items of its mail), a reader's two clicks from another.
    for (let item = 0; item < 12; item++)
      windows.add(SOURCE, { mail: 'm1', item: `item-${item}`, at: item, payload: `scan-${item}` }, 12);
    windows.add('203.0.113.7', { mail: 'm2', item: 'item-0', at: 5, payload: 'reader-0' }, 12);
    windows.add('203.0.113.7', { mail: 'm2', item: 'item-1', at: 6, payload: 'reader-1' }, 12);
    const released = windows.release(10, true).map((fetch) => fetch.payload);
    expect(released).toEqual(['reader-0', 'reader-1']);
    expect(windows.sources).toBe(0);
    expect(windows.release(10_000, true)).toEqual([]);
  });
});
