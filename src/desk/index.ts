// desk/ — the editor's desk (`digest serve` /admin): sign-in, the board of the week's ranking, decisions, edits,
// regeneration, translations, publishing and sending from the browser; its views live in desk/views/.
// This file is the room's one face: other rooms, the composition root and the entry points import only it.
import type { DigestDeps } from '../deps.js';
import type { Desk, DeskOptions } from './desk.js';
import type { EditorsDeps } from './ports.js';

export type { Desk, DeskOptions, DeskReply, DeskSession } from './desk.js';
export { MIN_PASSWORD_LENGTH } from './passwords.js';

/**
 * Build once per server: the desk holds the sign-in rate limits. It takes the full deps, the one place in the room
 * that does: its actions run other rooms' use cases (build, add, list, publish, send) with them (see ports.ts).
 */
export async function createDesk(deps: DigestDeps, options: DeskOptions): Promise<Desk> {
  return (await import('./desk.js')).createDesk(deps, options);
}

export async function addEditor(deps: EditorsDeps, input: { email: string; password: string }) {
  return (await import('./editors.js')).addEditor(deps, input);
}

export async function listEditors(deps: EditorsDeps) {
  return (await import('./editors.js')).listEditors(deps);
}

export async function removeEditor(deps: EditorsDeps, input: { email: string }) {
  return (await import('./editors.js')).removeEditor(deps, input);
}
