import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/core/rate-limiter.js';

describe('createRateLimiter', () => {
  it('allows a burst up to capacity per key, then refuses with the wait', () => {
    let time = 0;
    const limiter = createRateLimiter({ capacity: 3, refillMs: 1000, now: () => time });
    expect([1, 2, 3].map(() => limiter.take('10.0.0.1').allowed)).toEqual([true, true, true]);
    expect(limiter.take('10.0.0.1')).toEqual({ allowed: false, retryAfterMs: 1000 });
    expect(limiter.take('10.0.0.2').allowed).toBe(true);
    time = 400;
    expect(limiter.take('10.0.0.1')).toEqual({ allowed: false, retryAfterMs: 600 });
    time = 1000;
    expect(limiter.take('10.0.0.1').allowed).toBe(true);
    expect(limiter.take('10.0.0.1').allowed).toBe(false);
  });

  it('one confirmation mail per inbox per hour', () => {
    let time = Date.parse('2026-05-04T07:00:00Z');
    const perInbox = createRateLimiter({ capacity: 1, refillMs: 3600_000, now: () => time });
    expect(perInbox.take('ada@example.com').allowed).toBe(true);
    time += 59 * 60_000;
    expect(perInbox.take('ada@example.com')).toEqual({ allowed: false, retryAfterMs: 60_000 });
    time += 60_000;
    expect(perInbox.take('ada@example.com').allowed).toBe(true);
  });

  it('keeps at most maxKeys buckets, dropping the least recently used', () => {
    const time = 0;
    const limiter = createRateLimiter({ capacity: 1, refillMs: 1000, maxKeys: 100, now: () => time });
    for (let index = 0; index < 1000; index++) limiter.take(`10.0.${index >> 8}.${index & 255}`);
    expect(limiter.size).toBe(100);
    expect(limiter.take('10.0.3.231').allowed).toBe(false);
    expect(limiter.take('10.0.0.0').allowed).toBe(true);
  });

  it("forgets a key once its bucket is full again: yesterday's thousand addresses take no memory today", () => {
    let time = 0;
    const limiter = createRateLimiter({ capacity: 5, refillMs: 12_000, now: () => time });
    for (let index = 0; index < 1000; index++) limiter.take(`10.1.${index >> 8}.${index & 255}`);
    expect(limiter.size).toBe(1000);
    time += 5 * 12_000;
    limiter.take('192.0.2.1');
    expect(limiter.size).toBe(1);
  });

  it('forgets each idle key as soon as its bucket is full again, between takes of other keys', () => {
    let time = 0;
    const limiter = createRateLimiter({ capacity: 5, refillMs: 12_000, now: () => time });
    limiter.take('10.2.0.1');
    time = 30_000;
    limiter.take('10.2.0.2');
    // [time, key taken then, keys held after]: the first key is full again at 60 s, the second at 90 s.
    const steps: [number, string, number][] = [
      [59_999, '10.2.0.3', 3],
      [60_000, '10.2.0.3', 2],
      [89_999, '10.2.0.3', 2],
      [90_000, '10.2.0.3', 1],
      [500_000, '10.2.0.4', 1],
    ];
    for (const [at, key, held] of steps) {
      time = at;
      limiter.take(key);
      expect(limiter.size, `at ${at} ms`).toBe(held);
    }
  });
});
