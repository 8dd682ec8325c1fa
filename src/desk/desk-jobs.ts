// The desk's actions that build or regenerate, as jobs: rebuilding the draft (alone, or after a decision or a new
// count), adding by URL or arXiv id (it reads the page) and regenerating an item or the header. In `digest serve`
// each job runs in its own process (the hidden `digest desk-job`, with the scheduled build's deadline and memory
// limit: compose/build-process.ts), so a hostile page or a long write never holds the server's event loop; without
// a runner (tests driving the app, a desk built elsewhere) it runs here.
import { type BuildStoppedError, type BuildStopReason, ConfigError } from '../core/errors.js';
import type { DeskActionContext, DeskOutcome } from './outcome.js';
import type { DeskDeps } from './ports.js';
import type { RegenerateOutcome } from './regenerate.js';

const JOB_KINDS = ['rebuild', 'add', 'regenerate'] as const;
export type DeskJobKind = (typeof JOB_KINDS)[number];

/** One action to run: which, for whom and which week (with where its draft goes), and the form it was posted with. */
export interface DeskJob {
  kind: DeskJobKind;
  context: DeskActionContext;
  form: Record<string, string>;
}

export type DeskJobOutcome = DeskOutcome | RegenerateOutcome;

/** Runs a job somewhere (its own process in `digest serve`); rejects with a BuildStoppedError when it was stopped. */
export type DeskJobRunner = (job: DeskJob) => Promise<DeskJobOutcome>;

/** Runs the job in this process (in `digest desk-job`, the process `digest serve` started for it). */
export async function runDeskJob(deps: DeskDeps, job: DeskJob): Promise<DeskJobOutcome> {
  const { context, form } = job;
  if (job.kind === 'regenerate') {
    const { regenerateOnDesk } = await import('./regenerate.js');
    return regenerateOnDesk(deps, context, { key: form.key ?? '', writer: form.writer ?? '' });
  }
  const decisions = await import('./desk-decisions.js');
  if (job.kind === 'add')
    return decisions.addOnDesk(deps, context, { input: form.input ?? '', note: form.note ?? '' });
  return decisions.rebuildDraft(deps, context);
}

/** The job `digest desk-job --job` was handed (JSON), checked: a ConfigError naming what is wrong. */
export function parseDeskJob(text: string): DeskJob {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError('--job must be JSON.', [{ path: '--job', message: 'not JSON' }]);
  }
  const job = value as Partial<DeskJob> | null;
  const context = job?.context as Partial<DeskActionContext> | undefined;
  const strings = (record: object | undefined) =>
    record !== undefined && Object.values(record).every((field) => typeof field === 'string');
  const valid =
    JOB_KINDS.some((kind) => kind === job?.kind) &&
    typeof context?.editor === 'string' &&
    typeof context.week === 'string' &&
    typeof context.draftDir === 'string' &&
    typeof job?.form === 'object' &&
    job.form !== null &&
    strings(job.form);
  if (!valid) {
    throw new ConfigError('--job must be a desk job: {kind, context: {editor, week, draftDir}, form}.', [
      { path: '--job', message: 'not a desk job' },
    ]);
  }
  return job as DeskJob;
}

/**
 * A job's process stopped at its deadline or memory limit, or died, as the desk's refusal: what happened, that
 * nothing half-written was kept, and what to do.
 */
export function stoppedRefusal(error: BuildStoppedError): DeskOutcome {
  return {
    ok: false,
    status: 503,
    title: STOPPED_TITLES[error.reason],
    message: `${error.message}. Nothing it had half-written was kept: the draft is as it was. ${WHAT_TO_DO[error.reason]}`,
  };
}

const STOPPED_TITLES: Record<BuildStopReason, string> = {
  deadline: 'The build was stopped at its deadline',
  memory: 'The build was stopped: out of memory',
  crash: 'The build failed',
  stopping: 'The build was stopped: the server is stopping',
};

const WHAT_TO_DO: Record<BuildStopReason, string> = {
  deadline:
    'A page that takes very long to read, or a slow model, is the usual cause: skip that item and rebuild, or raise schedule.buildTimeoutSeconds.',
  memory:
    'A very large page is the usual cause: skip the item it belongs to and rebuild, or raise schedule.buildMemoryMb.',
  crash:
    'The server log has its last lines (they start with "desk build:"). Try again; if it fails the same way, skip the item it was reading.',
  stopping: 'Try again once the server is back.',
};
