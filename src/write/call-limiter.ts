// At most `concurrency` LLM calls in flight across the whole run, and at most `requestsPerMinute` starts per
// provider in any rolling minute. Retries on 429/5xx happen inside the SDK call (it honours Retry-After).
import PQueue from 'p-queue';
import type { ProviderName } from '../config/llm-schema.js';

export interface CallLimiter {
  run<T>(provider: ProviderName, task: () => Promise<T>): Promise<T>;
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
    run<T>(provider: ProviderName, task: () => Promise<T>): Promise<T> {
      const limited = rateQueue(provider);
      // The rate limit is applied before a slot is taken, so waiting for the minute does not block other providers.
      const start = limited ? limited.add(async () => {}) : Promise.resolve();
      return start.then(() => slots.add(task) as Promise<T>);
    },
  };
}
