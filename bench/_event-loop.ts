// The longest the event loop was held while some work ran: a callback that re-queues itself with setImmediate
// measures each gap between two of its turns.

/** Starts watching; `stop()` ends it and says the longest gap in ms. */
export function watchEventLoop(): { stop(): number } {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const spin = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    stop() {
      running = false;
      return longest;
    },
  };
}
