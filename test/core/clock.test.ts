// The timer port: timeoutSignal() aborts as AbortSignal.timeout() does, on whichever timer it is given.
import { describe, expect, it } from 'vitest';
import { systemClock, systemTimer, timeoutSignal } from '../../src/core/clock.js';
import { manualTimer } from '../support/manual-timer.js';

describe('timeoutSignal', () => {
  it('aborts with a TimeoutError when its time has passed on the timer, not before', () => {
    const timer = manualTimer();
    const { signal } = timeoutSignal(timer, 300);
    timer.advance(299);
    expect(signal.aborted).toBe(false);
    timer.advance(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
    expect(timer.pending).toBe(0);
  });

  it('never aborts once cancelled, and leaves no wait behind', () => {
    const timer = manualTimer();
    const { signal, cancel } = timeoutSignal(timer, 300);
    cancel();
    expect(timer.pending).toBe(0);
    timer.advance(1000);
    expect(signal.aborted).toBe(false);
  });

  it('runs waits set during an advance when they fall due within it, in due order', () => {
    const timer = manualTimer();
    const seen: number[] = [];
    const tick = () => {
      seen.push(timer.now());
      if (timer.now() < 300) timer.after(100, tick);
    };
    timer.after(100, tick);
    timer.after(250, () => seen.push(-timer.now()));
    timer.advance(1000);
    expect(seen).toEqual([100, 200, -250, 300]);
    expect(timer.now()).toBe(1000);
  });
});

describe('the root clock', () => {
  it('carries the real timer', () => {
    expect(systemClock.timer).toBe(systemTimer);
  });
});
