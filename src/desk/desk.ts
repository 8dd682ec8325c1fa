// The editor's desk: the use cases behind /admin. Routes parse the request and call these; each returns what to
// send (a page, a redirect, a file), never touching HTTP itself. The pages (GET) are in pages.ts, the actions (POST)
// in actions.ts, sign-in and sessions in auth.ts; capability.ts holds what they share.
import type { DigestDeps } from '../deps.js';
import { actions } from './actions.js';
import { createDeskAuth, DEFAULT_SIGN_IN_LIMITS, type DeskSession } from './auth.js';
import { createDeskContext, type DeskOptions } from './desk-context.js';
import { type DeskJobOutcome, parseDeskJob } from './desk-jobs.js';
import { readerDesk } from './desk-readers.js';
import { pages } from './pages.js';
import type { DeskReply } from './replies.js';
import { DESK_CSS, DESK_JS } from './views/assets.js';

export type { DeskOptions, DeskReply, DeskSession };

/** The desk's static files, by name under /desk-assets/. */
const ASSETS: Record<string, { contentType: string; body: string }> = {
  'desk.css': { contentType: 'text/css; charset=utf-8', body: DESK_CSS },
  'desk.js': { contentType: 'text/javascript; charset=utf-8', body: DESK_JS },
};

export function createDesk(deps: DigestDeps, options: DeskOptions) {
  const desk = createDeskContext(deps, options);
  return {
    auth: createDeskAuth(deps, options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS),
    assets: ASSETS,
    ...pages(desk),
    ...actions(desk),
    ...readerDesk(desk),
  };
}

export type Desk = ReturnType<typeof createDesk>;

/**
 * `digest desk-job`: one desk action that builds or regenerates (the JSON `digest serve` hands it), run in this
 * process — the one `digest serve` started for it.
 */
export function runDeskJobHere(deps: DigestDeps, text: string): Promise<DeskJobOutcome> {
  const job = parseDeskJob(text);
  return createDeskContext(deps, { siteDir: '', draftDir: job.context.draftDir }).runJob(job);
}
