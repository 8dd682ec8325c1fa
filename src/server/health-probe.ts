// /healthz's look at the database and the outbox, shared: at most one probe runs at a time, and a result younger
// than `freshMs` is answered at once. A load balancer asking every second, or a flood of /healthz, costs one query a
// second; and while a probe waits behind other work on the database (PGlite is one session), a result younger than
// `staleMs` answers instead of queueing — so /healthz stays fast under load and still turns 503 once the database
// has stopped answering for `staleMs`.
import type { MailStatus } from '../subscribers/index.js';

export interface HealthResult {
  database: 'ok' | 'unreachable';
  error?: unknown;
  mail?: MailStatus;
}

export interface HealthProbeOptions {
  checkDatabase(): Promise<void>;
  mailStatus?: () => Promise<MailStatus>;
  /** 0 probes on every request (tests). */
  freshMs?: number;
  staleMs?: number;
  now?: () => number;
}

export function createHealthProbe(options: HealthProbeOptions): () => Promise<HealthResult> {
  const freshMs = options.freshMs ?? 1_000;
  const staleMs = options.staleMs ?? 5_000;
  const now = options.now ?? Date.now;
  let last: { at: number; result: HealthResult } | null = null;
  let running: Promise<HealthResult> | null = null;

  async function probe(): Promise<HealthResult> {
    try {
      await options.checkDatabase();
    } catch (error) {
      return { database: 'unreachable', error };
    }
    return options.mailStatus ? { database: 'ok', mail: await options.mailStatus() } : { database: 'ok' };
  }

  return async () => {
    const started = now();
    if (last && started - last.at < freshMs) return last.result;
    running ??= probe()
      .catch((error: unknown): HealthResult => ({ database: 'unreachable', error }))
      .then((result) => {
        last = { at: now(), result };
        return result;
      })
      .finally(() => {
        running = null;
      });
    if (last && freshMs > 0 && started - last.at < staleMs) return last.result;
    return running;
  };
}
