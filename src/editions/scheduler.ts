// When the weekly job runs: croner fires at the configured times in the configured zone and calls `runDue`, which
// runs the latest scheduled time not yet recorded as run. At start the same check catches up a run missed while
// the server was down — once, however many were missed. Each run is recorded in the store (cache namespace
// 'schedule'), under the job lock, so two instances on one PostgreSQL database never build one edition twice.
import { Cron } from 'croner';
import type { ScheduleConfig } from '../config/schedule-schema.js';
import { latestMonday } from '../core/dates.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { Clock } from '../deps.js';
import type { Store } from '../store/types.js';
import type { ScheduledEditionOutcome } from './schedule.js';

export const SCHEDULE_NAMESPACE = 'schedule';
const LAST_RUN_KEY = 'last-run';

export interface ScheduledRun {
  /** The time the run was scheduled for (not when it started). */
  scheduledAt: Date;
  /** The edition it builds: the Monday of the scheduled day in the schedule's zone. */
  week: string;
}

/** What the store remembers of the last run. */
export interface RunRecord {
  scheduledAt: string;
  week: string | null;
  status: ScheduledEditionOutcome['status'] | 'failed' | 'baseline';
  finishedAt: string;
  error?: string;
}

export type RunDueResult =
  | { ran: true; run: ScheduledRun; outcome: ScheduledEditionOutcome }
  | { ran: false; reason: 'nothing due' | 'busy' | 'locked' | 'failed' | 'baseline' };

export interface SchedulerOptions {
  schedule: Pick<ScheduleConfig, 'cron' | 'timeZone'>;
  store: Pick<Store, 'cache' | 'jobs'>;
  clock: Clock;
  log: Logger;
  /** Stops a run in flight from being recorded (it was cut short: the next start runs it again). */
  signal?: AbortSignal;
  job(run: ScheduledRun): Promise<ScheduledEditionOutcome>;
}

export interface Scheduler {
  /** Catches up a missed run (at most one), then runs on schedule until `stop()`. */
  start(): Promise<RunDueResult>;
  /** Runs the latest scheduled time at or before `now` unless it was already run. */
  runDue(now?: Date): Promise<RunDueResult>;
  /** The next scheduled time, or null. */
  nextRun(): Date | null;
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, log } = options;
  const { cron, timeZone } = options.schedule;
  const times = scheduleTimes(cron, timeZone);
  const runs = runRecords(options.store);
  let timer: Cron | null = null;
  let running: Promise<RunDueResult> | null = null;
  let starting: Promise<RunDueResult> | null = null;
  let stopped = false;

  async function runDue(now = clock.now()): Promise<RunDueResult> {
    if (running) {
      log.info('schedule: a run is still in progress; this one is skipped');
      return { ran: false, reason: 'busy' };
    }
    const work = (async (): Promise<RunDueResult> => {
      const scheduledAt = times.dueAt(now);
      if (!scheduledAt || isDone(await runs.last(), scheduledAt))
        return { ran: false, reason: 'nothing due' };
      return runOnce(options, runs, scheduledAt);
    })();
    running = work;
    try {
      return await work;
    } finally {
      running = null;
    }
  }

  async function start(): Promise<RunDueResult> {
    const now = clock.now();
    let result: RunDueResult;
    if ((await runs.last()) === null) {
      // A first start has missed nothing: earlier scheduled times predate this service.
      result = await recordBaseline(runs, times.dueAt(now) ?? now, now);
    } else if (stopped) {
      return { ran: false, reason: 'nothing due' };
    } else {
      result = await runDue(now);
    }
    if (!stopped) timer = startTimer(options, runDue);
    return result;
  }

  return {
    start() {
      starting ??= start();
      return starting;
    },
    runDue,
    nextRun: () => times.nextRun(clock.now()),
    async stop() {
      stopped = true;
      timer?.stop();
      timer = null;
      await starting?.catch(() => {});
      await running?.catch(() => {});
    },
  };
}

/** The schedule's times: the latest one at or before a moment, and the next one after it. */
function scheduleTimes(cron: string, timeZone: string) {
  const pattern = new Cron(cron, { timezone: timeZone, paused: true });
  return {
    // croner's previousRuns are strictly before the reference's whole second: the next second includes `now`'s.
    dueAt: (now: Date): Date | null =>
      pattern.previousRuns(1, new Date(Math.floor(now.getTime() / 1000) * 1000 + 1000))[0] ?? null,
    nextRun: (now: Date): Date | null => pattern.nextRun(now),
  };
}

type RunRecords = ReturnType<typeof runRecords>;

/** The last run, as the store remembers it. */
function runRecords(store: Pick<Store, 'cache'>) {
  return {
    last: () => store.cache.get<RunRecord>(SCHEDULE_NAMESPACE, LAST_RUN_KEY),
    record: (value: RunRecord) =>
      store.cache.put({ namespace: SCHEDULE_NAMESPACE, key: LAST_RUN_KEY, value }),
  };
}

function isDone(last: RunRecord | null, scheduledAt: Date): boolean {
  return last !== null && Date.parse(last.scheduledAt) >= scheduledAt.getTime();
}

async function recordBaseline(runs: RunRecords, scheduledAt: Date, now: Date): Promise<RunDueResult> {
  await runs.record({
    scheduledAt: scheduledAt.toISOString(),
    week: null,
    status: 'baseline',
    finishedAt: now.toISOString(),
  });
  return { ran: false, reason: 'baseline' };
}

/** Runs one scheduled time under the job lock, so two instances on one database never build one edition twice. */
async function runOnce(
  options: SchedulerOptions,
  runs: RunRecords,
  scheduledAt: Date,
): Promise<RunDueResult> {
  const { store, log } = options;
  const run: ScheduledRun = { scheduledAt, week: editionWeek(scheduledAt, options.schedule.timeZone) };
  const locked = await store.jobs.withLock(`digest:build:${run.week}`, async (): Promise<RunDueResult> => {
    // Looked at again under the lock: another instance may have run it just now.
    if (isDone(await runs.last(), scheduledAt)) return { ran: false, reason: 'nothing due' };
    log.info(`schedule: running the ${scheduledAt.toISOString()} run (edition ${run.week})`);
    return runJob(options, runs, run);
  });
  if (!locked.acquired) {
    log.info(`schedule: another instance is building the edition of ${run.week}; this one skips it`);
    return { ran: false, reason: 'locked' };
  }
  return locked.value;
}

/** The job, its outcome recorded; a failure is recorded too, and not retried before the next scheduled time. */
async function runJob(options: SchedulerOptions, runs: RunRecords, run: ScheduledRun): Promise<RunDueResult> {
  const { clock, log } = options;
  try {
    const outcome = await options.job(run);
    await runs.record({ ...recordOf(run, clock), status: outcome.status });
    return { ran: true, run, outcome };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    log.warn(
      `schedule: the run of ${run.scheduledAt.toISOString()} (edition ${run.week}) failed: ${errorMessage(error)}. ` +
        `It is not retried until the next scheduled time; build it by hand with "./digest build --week ${run.week}".`,
    );
    await runs.record({ ...recordOf(run, clock), status: 'failed', error: errorMessage(error) });
    return { ran: false, reason: 'failed' };
  }
}

/** croner's timer: at each scheduled time, the due run (its failures are logged, never thrown at the timer). */
function startTimer(options: SchedulerOptions, runDue: (now: Date) => Promise<RunDueResult>): Cron {
  const { clock, log } = options;
  const { cron, timeZone } = options.schedule;
  const timer = new Cron(cron, { timezone: timeZone, protect: true }, async (self: Cron) => {
    // The time croner fired for, so a timer a hair early still counts as that run.
    const firedFor = self.currentRun();
    const current = clock.now();
    await runDue(firedFor && firedFor > current ? firedFor : current).catch((error: unknown) =>
      log.warn(`schedule: ${errorMessage(error)}`),
    );
  });
  const next = timer.nextRun();
  log.info(`schedule: "${cron}" (${timeZone}); next run ${next ? next.toISOString() : 'never'}`);
  return timer;
}

function recordOf(run: ScheduledRun, clock: Clock) {
  return {
    scheduledAt: run.scheduledAt.toISOString(),
    week: run.week,
    finishedAt: clock.now().toISOString(),
  };
}

/** The Monday of the scheduled time's calendar day in `timeZone`. */
export function editionWeek(scheduledAt: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(scheduledAt);
  return latestMonday(new Date(`${day}T00:00:00Z`));
}
