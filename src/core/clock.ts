// The clock port: the one place that reads the wall clock. Use cases take a Clock (tests pass a fixed one); the
// few infrastructure stamps with no use case around them (log lines, lock heartbeats) read systemClock.
export interface Clock {
  now(): Date;
  /** What the digest's deadlines and progress ticks wait on (default: systemTimer). */
  timer?: Timer;
}

/**
 * Time that passes: what deadlines and progress ticks wait on. The composition root's clock carries systemTimer;
 * tests pass a manual one and advance it, so a deadline passes when the test says so, not when a loaded machine
 * gets to it.
 */
export interface Timer {
  /** Milliseconds on a running count; only differences between two readings mean anything. */
  now(): number;
  /** Calls `callback` once, `ms` from now, unless the returned function cancels it first. */
  after(ms: number, callback: () => void): () => void;
}

/** The real timer; its waits never keep the process alive on their own. */
export const systemTimer: Timer = {
  now: () => Date.now(),
  after(ms, callback) {
    const timeout = setTimeout(callback, ms);
    timeout.unref();
    return () => clearTimeout(timeout);
  },
};

export const systemClock: Clock = { now: () => new Date(), timer: systemTimer };

/**
 * AbortSignal.timeout(ms) on `timer`: aborts with the same "TimeoutError" DOMException, which callers tell apart
 * from a cancellation; `cancel` drops the wait once it no longer matters.
 */
export function timeoutSignal(timer: Timer, ms: number): { signal: AbortSignal; cancel: () => void } {
  const controller = new AbortController();
  const cancel = timer.after(ms, () =>
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
  );
  return { signal: controller.signal, cancel };
}
