// `digest serve`'s scheduled sends: every few seconds (and at start, so a send due while the server was down goes
// out on its return) it looks for sends whose time has come, claims each — one UPDATE that exactly one instance on
// the database wins — and runs the same send as `digest send`, through the one send log, so each reader gets the
// mail once whatever desk, CLI or other instance sends beside it. Between looks a timer waits for the next send
// due, so a send goes out at its time, not at the next look.
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { Clock } from '../deps.js';
import type { ScheduledSend } from '../store/scheduled-sends.js';
import type { Store } from '../store/types.js';
import type { SendOutcome } from './send-outcome.js';

/** How often the store is asked for sends set elsewhere (another instance, the CLI, the desk). */
export const SEND_CHECK_MS = 10_000;

export interface SendSchedulerOptions {
  store: Pick<Store, 'scheduledSends'>;
  clock: Clock;
  log: Logger;
  /** The send of one edition, as `digest send --week` does it. */
  send(week: string): Promise<SendOutcome>;
  checkEveryMs?: number;
}

export interface SendScheduler {
  /** Performs the sends due at `now` that this process claims; the ids it ran. */
  runDue(now?: Date): Promise<number[]>;
  /** Runs what is due, then looks again until `stop()`. */
  start(): Promise<number[]>;
  /** Stops looking and waits for a send in flight. */
  stop(): Promise<void>;
}

export function createSendScheduler(options: SendSchedulerOptions): SendScheduler {
  const { store, clock, log } = options;
  const every = options.checkEveryMs ?? SEND_CHECK_MS;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number[]> | null = null;
  let stopped = false;

  async function runDue(now = clock.now()): Promise<number[]> {
    const ran: number[] = [];
    for (const due of await store.scheduledSends.due(now)) {
      if (await store.scheduledSends.claim(due.id)) ran.push(await perform(options, due));
    }
    return ran;
  }

  async function look(): Promise<number[]> {
    running = runDue().catch((error: unknown) => {
      log.warn(`scheduled send: ${errorMessage(error)}`);
      return [];
    });
    try {
      return await running;
    } finally {
      running = null;
      await plan();
    }
  }

  async function plan(): Promise<void> {
    if (stopped) return;
    const next = await store.scheduledSends.nextWaiting().catch(() => null);
    const wait = next ? Math.max(0, next.sendAt.getTime() - clock.now().getTime()) : every;
    timer = setTimeout(() => void look(), Math.min(wait, every));
    timer.unref();
  }

  return {
    runDue,
    start: look,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** One claimed send, run to its end; its counts (or its error) are recorded on the row. */
async function perform(options: SendSchedulerOptions, due: ScheduledSend): Promise<number> {
  const { store, log } = options;
  log.info(
    `scheduled send: sending ${due.edition} (set for ${due.sendAt.toISOString()} by ${due.createdBy})`,
  );
  try {
    const outcome = await options.send(due.edition);
    await store.scheduledSends.finish(due.id, { ...outcome.counts, complete: outcome.complete });
    log.info(`scheduled send: ${due.edition} sent to ${outcome.counts.sent} reader(s) in all`);
  } catch (error) {
    log.warn(
      `scheduled send: sending ${due.edition} failed: ${errorMessage(error)} (run "./digest send --week ${due.edition}")`,
    );
    await store.scheduledSends.finish(due.id, { error: errorMessage(error) });
  }
  return due.id;
}
