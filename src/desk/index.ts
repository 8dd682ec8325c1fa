// desk/ — the editor's desk (`digest serve` /admin): sign-in, the board of the week's ranking, decisions, edits,
// regeneration, translations, publishing and sending from the browser; its views live in desk/views/.
// This file is the room's one face: other rooms, the composition root and the entry points import only it.
import type { DigestDeps } from '../deps.js';
import type { Desk, DeskOptions } from './desk.js';

export type { Desk, DeskOptions, DeskReply, DeskSession } from './desk.js';
export { MIN_PASSWORD_LENGTH } from './passwords.js';

/** Build once per server: the desk holds the sign-in rate limits. */
export async function createDesk(deps: DigestDeps, options: DeskOptions): Promise<Desk> {
  return (await import('./desk.js')).createDesk(deps, options);
}

export async function addEditor(deps: DigestDeps, input: { email: string; password: string }) {
  return (await import('./editors.js')).addEditor(deps, input);
}

export async function listEditors(deps: DigestDeps) {
  return (await import('./editors.js')).listEditors(deps);
}

export async function removeEditor(deps: DigestDeps, input: { email: string }) {
  return (await import('./editors.js')).removeEditor(deps, input);
}
