// Politeness per host: at most one request every `intervalMs` to the same host (arXiv asks for one every 3 s).
// Each caller reserves its slot before it waits, so callers running at once are spaced too. The timer is a port:
// tests pass a clock whose sleep advances it, and check the spacing without waiting.
import { sleep } from './sleep.js';

export interface PacerTimer {
  /** Milliseconds on any monotonic scale. */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemTimer: PacerTimer = { now: () => performance.now(), sleep };

export interface HostPacer {
  /** Resolves when a request to `url`'s host may be sent. */
  wait(url: string, signal?: AbortSignal): Promise<void>;
}

export function createHostPacer(intervalMs: number, timer: PacerTimer = systemTimer): HostPacer {
  const nextFree = new Map<string, number>();
  return {
    async wait(url, signal) {
      const host = new URL(url).host.toLowerCase();
      const now = timer.now();
      const at = Math.max(now, nextFree.get(host) ?? Number.NEGATIVE_INFINITY);
      nextFree.set(host, at + intervalMs);
      if (at > now) await timer.sleep(at - now, signal);
    },
  };
}
