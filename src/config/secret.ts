// DIGEST_SECRET: the key every subscriber token is signed with. Read from the environment when needed, never stored.
import { ConfigError } from '../core/errors.js';

export const MIN_SECRET_BYTES = 32;
const HOW_TO_CREATE =
  "Create one with `openssl rand -base64 48` (or `node -e \"console.log(require('crypto').randomBytes(48).toString('base64'))\"`) " +
  'and set it in the environment; keep it stable, since changing it invalidates every link already mailed.';

/** The secret from the environment as bytes; a clear ConfigError when it is missing or too short. */
export function readSecret(env: NodeJS.ProcessEnv, name = 'DIGEST_SECRET'): Buffer {
  const value = env[name];
  if (!value) {
    throw new ConfigError(
      `${name} is not set: it signs confirmation and unsubscribe links. ${HOW_TO_CREATE}`,
      [{ path: name, message: 'missing' }],
    );
  }
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${name} is too short (${bytes.byteLength} bytes; at least ${MIN_SECRET_BYTES}). ${HOW_TO_CREATE}`,
      [{ path: name, message: `shorter than ${MIN_SECRET_BYTES} bytes` }],
    );
  }
  return bytes;
}
