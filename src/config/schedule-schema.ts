// The weekly schedule inside `digest serve`: when the week's edition is built, and whether it goes out
// on its own or waits for an editor.
import { Cron } from 'croner';
import { z } from 'zod';

export const DEFAULT_SCHEDULE_CRON = '0 7 * * 1';
export const DEFAULT_SCHEDULE_TIME_ZONE = 'UTC';

/** Whether `zone` is an IANA time zone this Node knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: string): boolean {
  // The default needs no look: the first Intl.DateTimeFormat loads the time zone data (~20 ms of every command).
  if (zone === DEFAULT_SCHEDULE_TIME_ZONE) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Why croner refuses `pattern`, or null when it is a cron expression it can run. */
export function cronProblem(pattern: string): string | null {
  try {
    new Cron(pattern, { paused: true }).stop();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Backups while `digest serve` runs: one file per cron slot in `dir`, the newest `keep` kept. */
const backupScheduleSchema = z
  .object({
    cron: z.string().superRefine((pattern, context) => {
      const problem = cronProblem(pattern);
      if (problem)
        context.addIssue({
          code: 'custom',
          message: `not a cron expression (e.g. "0 3 * * *", daily 03:00): ${problem}`,
        });
    }),
    keep: z.number().int().min(1).max(10_000).default(7),
    /** The folder the files go to (made 0700 when missing), relative to where `digest serve` runs. */
    dir: z.string().min(1).default('backups'),
  })
  .strict();

export const scheduleSchema = z
  .object({
    /** Run the schedule while `digest serve` runs. */
    enabled: z.boolean().default(true),
    /** A cron expression (minute hour day-of-month month day-of-week; seconds optional first), read in `timeZone`. */
    cron: z
      .string()
      .default(DEFAULT_SCHEDULE_CRON)
      .superRefine((pattern, context) => {
        const problem = cronProblem(pattern);
        if (problem)
          context.addIssue({
            code: 'custom',
            message: `not a cron expression (e.g. "0 7 * * 1", Mondays 07:00): ${problem}`,
          });
      }),
    timeZone: z
      .string()
      .default(DEFAULT_SCHEDULE_TIME_ZONE)
      .refine(
        isTimeZone,
        'not a time zone this system knows (use an IANA name like "Europe/Berlin" or "UTC")',
      ),
    /** Publish (and send) a clean build at once; otherwise it waits as a draft for an editor. Degraded builds always wait. */
    autoPublish: z.boolean().default(false),
    /**
     * The scheduled build runs in its own process, off the server's event loop; it is stopped after this many
     * seconds (reading, writing and checking a week, with the LLM's own time limits, takes minutes).
     */
    buildTimeoutSeconds: z.number().int().min(1).max(86_400).default(3_600),
    /**
     * That process's memory limit in MB: its JavaScript heap (`--max-old-space-size`), and its resident memory
     * past this plus what the runtime itself holds (compose/_memory-watch.ts); a build that needs more is stopped.
     */
    buildMemoryMb: z.number().int().min(64).max(65_536).default(1_024),
    /** Backups on their own cron (in `timeZone`), whether or not the weekly build is enabled. */
    backup: backupScheduleSchema.optional(),
  })
  .strict()
  .prefault({});

export type ScheduleConfig = z.infer<typeof scheduleSchema>;
