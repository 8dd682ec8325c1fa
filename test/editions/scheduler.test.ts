// The schedule's timing, driven by a fixed clock (no waiting for croner): a missed run runs once at start, a
// restart does not run it again, a first start misses nothing, and on PostgreSQL two instances never run one
// edition twice (advisory lock, then the record looked at again under it).
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import type { ScheduledEditionOutcome } from '../../src/editions/schedule.js';
import { createScheduler, editionWeek, type ScheduledRun } from '../../src/editions/scheduler.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createPostgresDatabase, storeDatabases, useTestStore } from '../support/database.js';

const SCHEDULE = { cron: '0 7 * * 1', timeZone: 'UTC' };
const at = (iso: string) => ({ now: () => new Date(iso) });

function recorder(job?: (run: ScheduledRun) => Promise<void>) {
  const runs: ScheduledRun[] = [];
  return {
    runs,
    job: async (run: ScheduledRun): Promise<ScheduledEditionOutcome> => {
      runs.push(run);
      await job?.(run);
      return { week: run.week, status: 'draft', items: 3, reason: 'approval' };
    },
  };
}

function scheduler(store: Store, now: string, job: ReturnType<typeof recorder>['job']) {
  return createScheduler({ schedule: SCHEDULE, store, clock: at(now), log: silentLogger, job });
}

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip)(`schedule timing (${kind})`, () => {
    const store = useTestStore(kind);
    const started: { stop(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const one of started.splice(0)) await one.stop();
    });
    const start = async (now: string, job: ReturnType<typeof recorder>['job']) => {
      const one = scheduler(store(), now, job);
      started.push(one);
      return one.start();
    };

    it('a first start misses nothing: earlier scheduled times predate the service', async () => {
      const first = recorder();
      expect(await start('2026-05-06T12:00:00Z', first.job)).toEqual({ ran: false, reason: 'baseline' });
      expect(first.runs).toEqual([]);
      // The next Monday 07:00 is due; the Monday before it was covered by the baseline.
      const tick = scheduler(store(), '2026-05-11T07:00:00.010Z', first.job);
      const result = await tick.runDue();
      expect(result).toMatchObject({ ran: true, run: { week: '2026-05-11' } });
      expect(first.runs.map((run) => run.scheduledAt.toISOString())).toEqual(['2026-05-11T07:00:00.000Z']);
    });

    it('runs a run missed while the server was down once at start, and not again on the next start', async () => {
      await start('2026-05-01T09:00:00Z', recorder().job);
      // Down from Friday to the Wednesday after two Mondays: only the latest missed run is made.
      const restart = recorder();
      const result = await start('2026-05-13T10:00:00Z', restart.job);
      expect(result).toMatchObject({ ran: true, run: { week: '2026-05-11' }, outcome: { status: 'draft' } });
      expect(restart.runs.map((run) => run.scheduledAt.toISOString())).toEqual(['2026-05-11T07:00:00.000Z']);
      const again = recorder();
      expect(await start('2026-05-13T11:00:00Z', again.job)).toEqual({ ran: false, reason: 'nothing due' });
      expect(again.runs).toEqual([]);
    });

    it('runs one run at a time in a process, and records a failed run so a restart does not repeat it', async () => {
      await start('2026-05-01T09:00:00Z', recorder().job);
      let finish!: () => void;
      const slow = recorder(() => new Promise<void>((resolve) => (finish = resolve)));
      const one = scheduler(store(), '2026-05-04T07:00:01Z', slow.job);
      const first = one.runDue();
      await expect.poll(() => slow.runs.length).toBe(1);
      expect(await one.runDue()).toEqual({ ran: false, reason: 'busy' });
      finish();
      expect(await first).toMatchObject({ ran: true });

      const failing = scheduler(store(), '2026-05-11T07:00:01Z', async () => {
        throw new Error('the feeds are down');
      });
      expect(await failing.runDue()).toEqual({ ran: false, reason: 'failed' });
      const after = recorder();
      expect(await start('2026-05-11T09:00:00Z', after.job)).toEqual({ ran: false, reason: 'nothing due' });
      expect(after.runs).toEqual([]);
    });
  });
}

describe.skipIf(storeDatabases()[1]!.skip)('two instances on one PostgreSQL database', () => {
  it('build a given edition once: the second skips while the first holds the lock, then finds it done', async () => {
    const database = await createPostgresDatabase();
    const first = await openStore({ databaseUrl: database.url });
    const second = await openStore({ databaseUrl: database.url });
    try {
      await scheduler(first, '2026-05-01T09:00:00Z', recorder().job).start();
      let finish!: () => void;
      const a = recorder(() => new Promise<void>((resolve) => (finish = resolve)));
      const b = recorder();
      const now = '2026-05-04T07:00:00.005Z';
      const running = scheduler(first, now, a.job).runDue();
      await expect.poll(() => a.runs.length).toBe(1);
      expect(await scheduler(second, now, b.job).runDue()).toEqual({ ran: false, reason: 'locked' });
      finish();
      expect(await running).toMatchObject({ ran: true, run: { week: '2026-05-04' } });
      // Lock free again: the record, read under it, says the run is done.
      expect(await scheduler(second, now, b.job).runDue()).toEqual({ ran: false, reason: 'nothing due' });
      expect(b.runs).toEqual([]);
      expect(a.runs).toHaveLength(1);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  }, 60_000);
});

describe('editionWeek', () => {
  it('is the Monday of the scheduled day in the schedule zone', () => {
    // Monday 07:00 in Tokyo is Sunday 22:00 UTC: still Monday's edition.
    expect(editionWeek(new Date('2026-05-03T22:00:00Z'), 'Asia/Tokyo')).toBe('2026-05-04');
    expect(editionWeek(new Date('2026-05-03T22:00:00Z'), 'UTC')).toBe('2026-04-27');
    expect(editionWeek(new Date('2026-05-06T12:00:00Z'), 'UTC')).toBe('2026-05-04');
  });
});
