// How many LLM calls each provider has in flight, adapted as the run goes (AIMD, like TCP's congestion window):
// a provider starts at its window (the configured concurrency; a local engine at the slots it reports, or 1) and
// a call that timed out while it shared the provider with other calls halves that window — once per round, the
// calls of the same round that time out too do not halve it again — because the time went to the server's queue,
// not to the model; the window that overflowed becomes its cap, one below. After a window's worth of answers in a row
// it grows by one again, up to that cap. At most `requestsPerMinute` calls start per provider in any rolling minute.
// A call whose signal aborts while it waits leaves the queue at once.
import PQueue from 'p-queue';
import type { ProviderName } from '../config/llm-schema.js';

/** One call's place in its provider's window. */
export interface CallSlot {
  /** True when another call of the same provider was in flight at any time during this one. */
  readonly shared: boolean;
}

/** How the call that held a slot ended, for the window. */
export type SlotOutcome = 'answered' | 'timed-out' | 'other';

export interface ProviderWindow {
  /** Calls allowed in flight now. */
  window: number;
  /** The most the window may grow to. */
  max: number;
  running: number;
  waiting: number;
}

export interface CallLimiter {
  run<T>(
    provider: ProviderName,
    task: (slot: CallSlot, finish: (outcome: SlotOutcome) => void) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T>;
  /** Sets a provider's window and cap before its first call (a local engine: the slots it reports). */
  configure(provider: ProviderName, window: { start: number; max: number }): void;
  /** Calls running and waiting, per provider that has been used. */
  windows(): Partial<Record<ProviderName, ProviderWindow>>;
}

interface Slot {
  shared: boolean;
  round: number;
}

interface Waiter {
  start: () => void;
}

class Lane {
  window: number;
  max: number;
  private round = 0;
  private answeredInRound = 0;
  readonly active = new Set<Slot>();
  readonly queue: Waiter[] = [];

  constructor(start: number, max: number) {
    this.max = Math.max(1, max);
    this.window = Math.min(Math.max(1, start), this.max);
  }

  acquire(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active.size < this.window) return Promise.resolve(this.take());
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take());
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private take(): Slot {
    const slot: Slot = { shared: this.active.size > 0, round: this.round };
    for (const other of this.active) other.shared = true;
    this.active.add(slot);
    return slot;
  }

  release(slot: Slot, outcome: SlotOutcome): void {
    if (!this.active.delete(slot)) return;
    if (outcome === 'timed-out' && slot.shared && slot.round === this.round) {
      // The window that overflowed is not tried again this run: growth stops one below it.
      this.max = Math.max(1, Math.min(this.max, this.window - 1));
      this.window = Math.max(1, Math.floor(this.window / 2));
      this.round += 1;
      this.answeredInRound = 0;
    } else if (outcome === 'answered') {
      this.answeredInRound += 1;
      if (this.answeredInRound >= this.window && this.window < this.max) {
        this.window += 1;
        this.answeredInRound = 0;
      }
    }
    while (this.active.size < this.window && this.queue.length) this.queue.shift()?.start();
  }
}

export function createCallLimiter(options: {
  concurrency: number;
  requestsPerMinute?: Partial<Record<ProviderName, number>>;
  /** The rate window (ms); a minute unless a test shortens it. */
  intervalMs?: number;
}): CallLimiter {
  const lanes = new Map<ProviderName, Lane>();
  const lane = (provider: ProviderName) => {
    let found = lanes.get(provider);
    if (!found) {
      found = new Lane(options.concurrency, options.concurrency);
      lanes.set(provider, found);
    }
    return found;
  };
  const perProvider = new Map<ProviderName, PQueue>();
  const rateQueue = (provider: ProviderName): PQueue | null => {
    const limit = options.requestsPerMinute?.[provider];
    if (!limit) return null;
    let queue = perProvider.get(provider);
    if (!queue) {
      queue = new PQueue({ intervalCap: limit, interval: options.intervalMs ?? 60_000, strict: true });
      perProvider.set(provider, queue);
    }
    return queue;
  };
  return {
    async run(provider, task, signal) {
      const limited = rateQueue(provider);
      // The rate limit is applied before a slot is taken, so waiting for the minute does not block other calls.
      if (limited) await limited.add(async () => {}, signal ? { signal } : {});
      const target = lane(provider);
      const slot = await target.acquire(signal);
      let outcome: SlotOutcome = 'other';
      try {
        return await task(slot, (ended) => {
          outcome = ended;
        });
      } finally {
        target.release(slot, outcome);
      }
    },
    configure(provider, window) {
      const target = lane(provider);
      target.max = Math.max(1, window.max);
      target.window = Math.min(Math.max(1, window.start), target.max);
    },
    windows() {
      return Object.fromEntries(
        [...lanes].map(([provider, entry]) => [
          provider,
          { window: entry.window, max: entry.max, running: entry.active.size, waiting: entry.queue.length },
        ]),
      );
    },
  };
}
