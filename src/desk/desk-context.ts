// What every answer of one desk shares: its ports (with the other capabilities' use cases bound to them), the page context
// of a session, the week's ranking (cached for the board) and the private folder rebuilt drafts are written to.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildStoppedError } from '../core/errors.js';
import type { RateLimiter } from '../core/rate-limiter.js';
import type { DigestDeps } from '../deps.js';
import { add, build, correct, type ListResult, list, publish, readStoredPaper } from '../editions/index.js';
import type { DeskSession, SignInLimits } from './auth.js';
import {
  type DeskJob,
  type DeskJobOutcome,
  type DeskJobRunner,
  runDeskJob,
  stoppedRefusal,
} from './desk-jobs.js';
import { testMailLimiter } from './desk-test-send.js';
import type { DeskActionContext } from './outcome.js';
import type { DeskDeps, DeskRuns } from './ports.js';
import type { DeskPageContext } from './views/view-model.js';

export interface DeskOptions {
  /** The folder `digest serve` serves: approving publishes into it. */
  siteDir: string;
  /** Where rebuilt drafts' pages go (never the published site); default a private temporary folder. */
  draftDir?: string;
  signInLimits?: SignInLimits;
  /**
   * Where the actions that build or regenerate run (`digest serve`: each in its own process, with a deadline and a
   * memory limit); default here.
   */
  jobs?: DeskJobRunner;
  /**
   * A change queued confirmation mails (an add, an import): `digest serve` wakes its outbox, so they go now rather
   * than at its next poll.
   */
  mailsQueued?: () => void;
}

export interface DeskContext {
  /** The ports the pages and actions use, with the other capabilities' use cases bound to the full deps. */
  deps: DeskDeps;
  siteDir: string;
  /** A signed-in page's context: the editor and the session's CSRF token. */
  context(session: DeskSession): DeskPageContext;
  /** The sign-in page's context: nobody yet, the form's own token. */
  loginContext(formToken: string): DeskPageContext;
  /** The week's ranking (the `list` use case), reused by the board until an action changes the week. */
  listWeek(week: string): Promise<ListResult>;
  /** Who acts on which week, where its draft goes; forgets the week's cached ranking, which the action changes. */
  actionContext(session: DeskSession, week: string): Promise<DeskActionContext>;
  /** Runs an action that builds or regenerates where the desk's jobs run; a stopped one is refused with what to do. */
  runJob(job: DeskJob): Promise<DeskJobOutcome>;
  /** Test mails each editor may still send (desk-test-send.ts). */
  testMails: RateLimiter;
}

const PLAN_TTL_MS = 60_000;

export function createDeskContext(deps: DigestDeps, options: DeskOptions): DeskContext {
  const siteName = deps.config.name;
  let draftDir: Promise<string> | undefined = options.draftDir
    ? Promise.resolve(options.draftDir)
    : undefined;
  const drafts = () => {
    draftDir ??= mkdtemp(join(tmpdir(), 'digest-desk-drafts-'));
    return draftDir;
  };
  // Ranking a week of 2,000 candidates takes about a second; the board reuses the plan until a desk action changes
  // the week, or for PLAN_TTL_MS (a CLI ingest or decision shows up by then; "Rebuild the draft" refreshes at once).
  const plans = new Map<string, { at: number; result: Promise<ListResult> }>();
  const runJob = async (job: DeskJob): Promise<DeskJobOutcome> => {
    try {
      return await (options.jobs ?? ((here: DeskJob) => runDeskJob(deskDeps, here)))(job);
    } catch (error) {
      if (!(error instanceof BuildStoppedError)) throw error;
      deps.log.warn(`desk: ${error.message}`);
      return stoppedRefusal(error);
    }
  };
  const rebuildDraft = (context: DeskActionContext) => runJob({ kind: 'rebuild', context, form: {} });
  const wakeOutbox = options.mailsQueued ?? (() => {});
  const deskDeps: DeskDeps = { ...deps, runs: { ...deskRuns(deps), rebuildDraft, wakeOutbox } };
  return {
    deps: deskDeps,
    runJob,
    testMails: testMailLimiter(() => deps.clock.now().getTime()),
    siteDir: options.siteDir,
    context: (session) => ({ editor: session.editor.email, csrf: session.csrf, siteName }),
    loginContext: (formToken) => ({ editor: null, csrf: formToken, siteName }),
    listWeek(week) {
      const now = deps.clock.now().getTime();
      const cached = plans.get(week);
      if (cached && now - cached.at < PLAN_TTL_MS) return cached.result;
      const result = list(deps, { week });
      plans.set(week, { at: now, result });
      result.catch(() => plans.delete(week));
      return result;
    },
    async actionContext(session, week) {
      plans.delete(week);
      return { editor: session.editor.email, week, draftDir: await drafts() };
    },
  };
}

/** The other capabilities' use cases the desk's actions run, with the full deps. */
function deskRuns(deps: DigestDeps): Omit<DeskRuns, 'rebuildDraft' | 'wakeOutbox'> {
  return {
    build: (input) => build(deps, input),
    add: (input) => add(deps, input),
    publish: (input) => publish(deps, input),
    correct: (input) => correct(deps, input),
    // Loaded when first sent: the mail stack is not carried by an idle `digest serve`.
    send: async (input) => (await import('../subscribers/index.js')).send(deps, input),
    sendTest: async (input) => (await import('../subscribers/index.js')).sendTest(deps, input),
    scheduleSend: async (input) => (await import('../subscribers/index.js')).scheduleSend(deps, input),
    cancelScheduledSend: async (input) =>
      (await import('../subscribers/index.js')).cancelScheduledSend(deps, input),
    readStoredPaper: (arxivId) => readStoredPaper(deps, arxivId),
  };
}
