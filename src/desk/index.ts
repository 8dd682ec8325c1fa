// desk/ — the editor's desk (`digest serve` /admin): sign-in, the board of the week's ranking, decisions, edits,
// regeneration, translations, publishing and sending from the browser; its views live in desk/views/.
import { lazyModule } from '../core/lazy.js';

export type { Desk, DeskOptions, DeskReply, DeskSession } from './desk.js';
export type { DeskJob, DeskJobOutcome, DeskJobRunner } from './desk-jobs.js';
export { MIN_PASSWORD_LENGTH } from './passwords.js';

// createDesk: Build once per server: the desk holds the sign-in rate limits. It takes the full deps, the one place
// in the capability that does: its actions run other capabilities' use cases (build, add, list, publish, send)
// with them (see ports.ts).
// runDeskJob: One desk action that builds or regenerates, from its JSON, run in this process (`digest desk-job`).
export const { createDesk, runDeskJobHere: runDeskJob } = lazyModule(() => import('./desk.js'));

export const { addEditor, listEditors, removeEditor } = lazyModule(() => import('./editors.js'));
