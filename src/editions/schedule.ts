// The weekly job as a use case: build the week's edition, then publish it (and send it, when a send step is given)
// if `schedule.autoPublish` is on and the build was clean; otherwise leave it as a draft for the editor. A degraded
// build (LLM fallbacks, flagged items, failed calls, budget out: the CLI's exit 3) never goes out on its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { build } from './build.js';
import { frozenEdition, frozenMessage } from './edition-guard.js';
import type { ScheduleDeps } from './ports.js';
import { publish } from './publish-and-email.js';

export interface ScheduledEditionInput {
  /** The edition's date (a Monday). */
  week: string;
  /** The folder `digest serve` serves: a published edition is rendered there. */
  siteDir: string;
  /** Sends a published edition to the subscribers (the `send` use case, when there is one). */
  send?: (week: string) => Promise<unknown>;
  /** For tests and `--offline` runs: build from what is stored, with the extractive writer. */
  ingest?: boolean;
  offline?: boolean;
}

export type ScheduledEditionOutcome =
  | { week: string; status: 'published' | 'sent'; items: number }
  /** The week was already published or mailed: the guard refused, nothing was built or written. */
  | { week: string; status: 'frozen'; items: number }
  | { week: string; status: 'draft'; items: number; reason: 'approval' | 'degraded' | 'thin' };

/** Builds the week's edition and publishes/sends it or leaves it a draft. Callers keep it to one instance (scheduler.ts). */
export async function runScheduledEdition(
  deps: ScheduleDeps,
  input: ScheduledEditionInput,
): Promise<ScheduledEditionOutcome> {
  const { log, config } = deps;
  const { week } = input;
  const frozen = await frozenEdition(deps.store, week);
  if (frozen) {
    log.warn(`schedule: ${frozenMessage(frozen, 'the scheduled build')}`);
    return { week, status: 'frozen', items: 0 };
  }
  log.info(`schedule: building the edition of ${week}`);
  // The build's preview page is not for readers: it goes to a private scratch folder, never the served site.
  const scratch = await mkdtemp(join(tmpdir(), 'digest-scheduled-'));
  let outcome: Awaited<ReturnType<typeof build>>;
  try {
    outcome = await build(deps, {
      week,
      outDir: scratch,
      ingest: input.ingest ?? true,
      enrich: true,
      offline: input.offline ?? false,
      check: true,
      refresh: false,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const items = outcome.edition.items.length;
  if (outcome.degraded) {
    log.warn(
      `schedule: the edition of ${week} was built degraded (fallbacks or flagged items); it stays a draft for an ` +
        'editor and is not published or sent automatically',
    );
    return { week, status: 'draft', items, reason: 'degraded' };
  }
  if (outcome.thin) {
    log.warn(`schedule: the edition of ${week} is thin (${outcome.thin}); it stays a draft for an editor`);
    return { week, status: 'draft', items, reason: 'thin' };
  }
  if (!config.schedule.autoPublish) {
    log.info(`schedule: the edition of ${week} is a draft awaiting approval (schedule.autoPublish is off)`);
    return { week, status: 'draft', items, reason: 'approval' };
  }
  await publish(deps, { week, outDir: input.siteDir });
  const published = { week, status: 'published', items } as const;
  return input.send ? sendPublished(published, input.send, log) : published;
}

/** Sends an edition the schedule published (`digest serve` does it itself after a build in its own process). */
export async function sendPublished(
  outcome: ScheduledEditionOutcome,
  send: (week: string) => Promise<unknown>,
  log: Pick<ScheduleDeps['log'], 'warn'>,
): Promise<ScheduledEditionOutcome> {
  if (outcome.status !== 'published') return outcome;
  try {
    await send(outcome.week);
  } catch (error) {
    log.warn(
      `schedule: the edition of ${outcome.week} is published but sending failed: ${errorMessage(error)}`,
    );
    throw error;
  }
  return { ...outcome, status: 'sent' };
}
