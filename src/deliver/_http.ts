// Calls to chat and mail APIs through the project's HTTP client, and the secrets they need from the environment.
// A chat URL is a configured (trusted) destination that carries a secret, so messages and logs name the channel.
import { ConfigError } from '../core/errors.js';
import { isHttpUrl } from '../core/urls.js';
import type { SendContext } from './types.js';

export interface PostOptions {
  url: string;
  /** How the destination appears in errors and logs ("slack channel \"team\""). */
  label: string;
  timeoutMs: number;
  body: unknown;
}

export async function postJson(options: PostOptions, context: SendContext): Promise<Buffer> {
  const response = await context.http.request({
    url: options.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options.body),
    trusted: true,
    label: options.label,
    timeoutMs: options.timeoutMs,
    // Answers to a post are short; anything large is not what the platform documents.
    maxBytes: 1024 * 1024,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  return response.body;
}

/** The secret read from the environment variable the config names; a clear error when it is missing. */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: string, field: string): string {
  const value = env[name]?.trim();
  if (!value) {
    throw new ConfigError(`the environment variable ${name} (named by ${field}) is not set`, [
      { path: field, message: `${name} is not set` },
    ]);
  }
  return value;
}

/** A webhook URL from the environment: http(s) only; the value itself never goes into the message. */
export function webhookUrl(env: NodeJS.ProcessEnv, name: string, field: string): string {
  const value = secretFromEnv(env, name, field);
  if (!isHttpUrl(value)) {
    throw new ConfigError(
      `the environment variable ${name} (named by ${field}) does not hold an http(s) URL`,
      [{ path: field, message: `${name} is not an http(s) URL` }],
    );
  }
  return value;
}

/** The JSON of an answer, or null when it is not JSON (then the caller's schema says what was expected). */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
