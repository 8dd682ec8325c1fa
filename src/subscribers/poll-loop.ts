// A loop that runs one pass after another while started: after a pass that found nothing to do it waits `pollMs`,
// or less when woken (new work was queued). The outbox worker's heartbeat.
import type { Logger } from '../core/ports.js';

export interface PollLoop {
  start(): void;
  /** Look now rather than at the next poll (and start when stopped). */
  wake(): void;
  /** Resolves after the pass in progress; no new one starts. */
  stop(): Promise<void>;
}

/** `pass` returns how much it found: 0 means wait for the next poll. */
export function createPollLoop(pass: () => Promise<number>, pollMs: number, log: Logger): PollLoop {
  let running = false;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;

  function pause(): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, pollMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run(): Promise<void> {
    while (running) {
      let found = 0;
      try {
        found = await pass();
      } catch (error) {
        log.warn(`outbox: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (found === 0 && running) await pause();
    }
  }

  function start(): void {
    if (running) return;
    running = true;
    loop = run();
  }

  return {
    start,
    wake() {
      if (!running) start();
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
  };
}
