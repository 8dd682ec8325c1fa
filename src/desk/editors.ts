// `digest editors add|list|remove`: who may sign in to the desk.
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import type { Editor } from '../store/desk-editors.js';
import { editorAddress } from './auth.js';
import { checkNewPassword, hashPassword } from './passwords.js';
import type { EditorsDeps } from './ports.js';

/** A bad "email" field: exit 2 naming it. */
const emailError = (message: string, reason: string) =>
  new ConfigError(message, [{ path: 'email', message: reason }]);

/** The address in the readers' normal form (core/email-address.ts), or the error naming what is wrong with it. */
function checkEmail(email: string): string {
  const check = normaliseAddress(email);
  if (!check.ok) {
    const shown = JSON.stringify(email.slice(0, 100));
    throw emailError(
      `${shown} is not an e-mail address: ${ADDRESS_PROBLEMS[check.problem]}.`,
      ADDRESS_PROBLEMS[check.problem],
    );
  }
  return check.address;
}

/** Who may sign in: an e-mail address and a password (stored as a scrypt hash only). */
type NewEditor = { email: string; password: string };

export async function addEditor(deps: EditorsDeps, input: NewEditor): Promise<Editor> {
  const email = checkEmail(input.email);
  checkNewPassword(input.password);
  const editor = await deps.store.editors.add(email, await hashPassword(input.password));
  const taken = `${email} is already an editor (remove them first to set a new password).`;
  if (!editor) throw emailError(taken, 'already an editor');
  return editor;
}

export function listEditors(deps: EditorsDeps): Promise<Editor[]> {
  return deps.store.editors.list();
}

export async function removeEditor(deps: EditorsDeps, input: { email: string }): Promise<boolean> {
  const email = editorAddress(input.email);
  return email ? deps.store.editors.remove(email) : false;
}
