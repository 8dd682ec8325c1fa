import { describe, expect, it } from 'vitest';
import { daysOf, editionWindow, formatLongDate, latestMonday } from '../../src/core/dates.js';

describe('edition dates', () => {
  it('covers the 7 UTC days ending on the edition date', () => {
    const window = editionWindow('2026-05-04');
    expect(window).toEqual({ start: '2026-04-28', end: '2026-05-04' });
    expect(daysOf(window)).toHaveLength(7);
  });
  it('finds the most recent Monday', () => {
    expect(latestMonday(new Date('2026-11-21T12:00:00Z'))).toBe('2026-11-16');
    expect(latestMonday(new Date('2026-11-16T00:00:00Z'))).toBe('2026-11-16');
  });
  it('formats dates as the reference page does', () => {
    expect(formatLongDate('2026-05-04')).toBe('May 4, 2026');
  });
  it('writes every month and day as Intl would (en-US, UTC)', () => {
    const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    for (const day of daysOf({ start: '2025-12-25', end: '2026-12-31' })) {
      expect(formatLongDate(day)).toBe(intl.format(new Date(`${day}T00:00:00Z`)));
    }
  });
});
