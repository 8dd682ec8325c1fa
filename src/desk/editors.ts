// `digest editors add|list|remove`: who may sign in to the desk.
import { ConfigError } from '../core/errors.js';
import type { Editor } from '../store/desk-editors.js';
import { normaliseEmail } from './auth.js';
import { checkNewPassword, hashPassword } from './passwords.js';
import type { EditorsDeps } from './ports.js';

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[^\s@<>"]{2,63}$/;

/** A bad "email" field: exit 2 naming it. */
const emailError = (message: string, reason: string) =>
  new ConfigError(message, [{ path: 'email', message: reason }]);

function checkEmail(email: string): string {
  const normal = normaliseEmail(email);
  if (!EMAIL.test(normal))
    throw emailError(`"${email.slice(0, 100)}" is not an e-mail address.`, 'not an e-mail address');
  return normal;
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
  return deps.store.editors.remove(normaliseEmail(input.email));
}
