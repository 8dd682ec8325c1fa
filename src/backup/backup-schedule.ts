// Backups on a schedule inside `digest serve` (schedule.backup): croner fires at each slot; the slot is run under
// the job lock and recorded in the store, so instances sharing one PostgreSQL database back it up once. Old files
// of the backup's own name shape in the folder are pruned to `keep`. A failure is logged, and the time of the last
// success (the store's record, the same on every instance) is what /metrics shows.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Cron } from 'croner';
import { errorMessage } from '../core/errors.js';
import type { ScheduledBackupDeps } from './ports.js';
import { BACKUP_PREFIX, BACKUP_SUFFIX, backupFileName, takeBackup } from './take-backup.js';

export const BACKUP_SCHEDULE_NAMESPACE = 'backup-schedule';
const LAST_SLOT = 'last-slot';
const LAST_SUCCESS = 'last-success';

export interface BackupScheduleSettings {
  cron: string;
  timeZone: string;
  keep: number;
  dir: string;
}

export type BackupSlotResult = 'done' | 'done elsewhere' | 'locked' | 'failed';

/** Backs up the slot `slot` unless it was (here or by another instance), then prunes. Never throws. */
export async function runBackupSlot(
  deps: ScheduledBackupDeps,
  settings: Pick<BackupScheduleSettings, 'keep' | 'dir'>,
  slot: Date,
): Promise<BackupSlotResult> {
  const { store, log } = deps;
  try {
    const locked = await store.jobs.withLock('digest:backup', async (): Promise<BackupSlotResult> => {
      const last = await store.cache.get<{ slot: string }>(BACKUP_SCHEDULE_NAMESPACE, LAST_SLOT);
      if (last && Date.parse(last.slot) >= slot.getTime()) return 'done elsewhere';
      await store.cache.put({
        namespace: BACKUP_SCHEDULE_NAMESPACE,
        key: LAST_SLOT,
        value: { slot: slot.toISOString() },
      });
      const dir = resolve(settings.dir);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const outcome = await takeBackup(deps, { file: join(dir, backupFileName(slot)) });
      await store.cache.put({
        namespace: BACKUP_SCHEDULE_NAMESPACE,
        key: LAST_SUCCESS,
        value: { at: deps.clock.now().toISOString(), file: outcome.file },
      });
      await pruneBackups(dir, settings.keep);
      return 'done';
    });
    return locked.acquired ? locked.value : 'locked';
  } catch (error) {
    log.warn(
      `backup: the scheduled backup of ${slot.toISOString()} failed: ${errorMessage(error)}. ` +
        'It is tried again at the next slot; take one by hand with "./digest backup".',
    );
    return 'failed';
  }
}

/** Deletes all but the newest `keep` backups the schedule wrote in `dir` (names sort by time). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const ours = (await readdir(dir))
    .filter((name) => name.startsWith(BACKUP_PREFIX) && name.endsWith(BACKUP_SUFFIX))
    .sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of old) await rm(join(dir, name), { force: true });
  return old;
}

/** When the last scheduled backup succeeded (any instance), in seconds since 1970; null before the first. */
export async function lastBackupSuccess(deps: Pick<ScheduledBackupDeps, 'store'>): Promise<number | null> {
  const record = await deps.store.cache.get<{ at: string }>(BACKUP_SCHEDULE_NAMESPACE, LAST_SUCCESS);
  return record ? Date.parse(record.at) / 1000 : null;
}

/** croner's timer over the slots; `stop()` waits for a backup in flight. */
export function startBackupSchedule(deps: ScheduledBackupDeps, settings: BackupScheduleSettings) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = new Cron(
    settings.cron,
    { timezone: settings.timeZone, protect: true },
    async (self: Cron) => {
      const slot = self.currentRun() ?? deps.clock.now();
      running = runBackupSlot(deps, settings, slot);
      await running;
    },
  );
  return {
    nextRun: () => timer.nextRun(),
    async stop() {
      timer.stop();
      await running;
    },
  };
}
