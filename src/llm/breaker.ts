// The breaker of the LLM client: gives up on a provider that stopped answering, so a hung server costs one timeout, not
// one per call. Timeouts that were the server's queue (calls in flight beside them, at a provider that has answered
// this run) never count: the limiter shrinks that provider's window instead. A refused connection or a host that does
// not resolve opens it at once (model-LLM client.ts says why and what to do). Each opening is said once, by `onOpen`.
import { ProviderUnavailableError } from './call-errors.js';
import type { ProviderBreaker } from './call-layers.js';

/**
 * Gives up on a provider that stopped answering, so a hung server costs one timeout, not one per call: after the
 * first timeout when it has not answered yet this run, or after 3 timeouts in a row when it had.
 */
export function createBreaker(onOpen: (error: Error) => void = () => {}): ProviderBreaker {
  const health = new Map<string, { answered: number; timeouts: number; open: Error | null }>();
  const of = (provider: string) => {
    let entry = health.get(provider);
    if (!entry) {
      entry = { answered: 0, timeouts: 0, open: null };
      health.set(provider, entry);
    }
    return entry;
  };
  return {
    check(provider) {
      const open = of(provider).open;
      if (open) throw open;
    },
    answered(provider) {
      const entry = of(provider);
      entry.answered += 1;
      entry.timeouts = 0;
    },
    hasAnswered(provider) {
      return of(provider).answered > 0;
    },
    timedOut(provider, timeoutMs) {
      const entry = of(provider);
      entry.timeouts += 1;
      if (entry.open || (entry.answered > 0 && entry.timeouts < 3)) return;
      entry.open = new ProviderUnavailableError(
        `${provider} did not answer within ${timeoutMs} ms (${entry.timeouts} time(s) in a row${entry.answered > 0 ? ', with no other call in flight' : ', and no answer yet this run'}); ` +
          'no more calls to it this run (a model that is just slow needs a larger llm.timeoutMs)',
      );
      onOpen(entry.open);
    },
    open(provider, error) {
      const entry = of(provider);
      if (entry.open) return;
      entry.open = error;
      onOpen(error);
    },
  };
}
