// `digest editors add|list|remove`: who may sign in to the desk.
import { ConfigError } from '../core/errors.js';
import type { DigestDeps } from '../deps.js';
import type { Editor } from '../store/types.js';
import { normaliseEmail } from './auth.js';
import { checkNewPassword, hashPassword } from './passwords.js';

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[^\s@<>"]{2,63}$/;

function checkEmail(email: string): string {
  const normal = normaliseEmail(email);
  if (!EMAIL.test(normal)) {
    throw new ConfigError(`"${email.slice(0, 100)}" is not an e-mail address.`, [
      { path: 'email', message: 'not an e-mail address' },
    ]);
  }
  return normal;
}

export async function addEditor(
  deps: DigestDeps,
  input: { email: string; password: string },
): Promise<Editor> {
  const email = checkEmail(input.email);
  checkNewPassword(input.password);
  const editor = await deps.store.addEditor(email, await hashPassword(input.password));
  if (!editor) {
    throw new ConfigError(`${email} is already an editor (remove them first to set a new password).`, [
      { path: 'email', message: 'already an editor' },
    ]);
  }
  return editor;
}

export function listEditors(deps: DigestDeps): Promise<Editor[]> {
  return deps.store.listEditors();
}

export async function removeEditor(deps: DigestDeps, input: { email: string }): Promise<boolean> {
  return deps.store.removeEditor(normaliseEmail(input.email));
}
