// Editor passwords: scrypt (node:crypto) with a random salt; the parameters are stored with the hash, so they can be
// raised later without breaking existing editors.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../core/errors.js';

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;
const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A clear error naming the rule when a new password is too short or too long. */
export function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ConfigError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`, [
      { path: 'password', message: `shorter than ${MIN_PASSWORD_LENGTH} characters` },
    ]);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ConfigError(`The password must have at most ${MAX_PASSWORD_LENGTH} characters.`, [
      { path: 'password', message: 'too long' },
    ]);
  }
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

// Compared against when the account does not exist, so a wrong address costs as long as a wrong password.
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const encoded = stored ?? (await decoy);
  const [scheme, n, r, p, salt, key] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
