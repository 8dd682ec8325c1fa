// At most `concurrency` LLM calls in flight across the whole run, and at most `requestsPerMinute` starts per
// provider in any rolling minute. Each retry of the road takes a new slot; a call whose signal aborts while it
// waits leaves the queue at once.
import PQueue from 'p-queue';
import type { ProviderName } from '../config/llm-schema.js';

export interface CallLimiter {
  run<T>(provider: ProviderName, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createCallLimiter(options: {
  concurrency: number;
  requestsPerMinute?: Partial<Record<ProviderName, number>>;
  /** The rate window (ms); a minute unless a test shortens it. */
  intervalMs?: number;
}): CallLimiter {
  const slots = new PQueue({ concurrency: options.concurrency });
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
    run<T>(provider: ProviderName, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      const limited = rateQueue(provider);
      const options = signal ? { signal } : {};
      // The rate limit is applied before a slot is taken, so waiting for the minute does not block other providers.
      const start = limited ? limited.add(async () => {}, options) : Promise.resolve();
      return start.then(() => slots.add(task, options) as Promise<T>);
    },
  };
}
