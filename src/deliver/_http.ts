// Calls to chat and mail APIs through the project's HTTP client, and the secrets they need from the environment.
// A chat URL is a configured (trusted) destination that carries a secret, so messages and logs name the channel.
import type { ChatChannelConfig } from '../config/deliver-schema.js';
import { ConfigError, FetchError } from '../core/errors.js';
import { isHttpUrl } from '../core/urls.js';
import type { ChatChannel, SendContext } from './types.js';

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
function webhookUrl(env: NodeJS.ProcessEnv, name: string, field: string): string {
  const value = secretFromEnv(env, name, field);
  if (!isHttpUrl(value)) {
    throw new ConfigError(
      `the environment variable ${name} (named by ${field}) does not hold an http(s) URL`,
      [{ path: field, message: `${name} is not an http(s) URL` }],
    );
  }
  return value;
}

type WebhookConfig = Extract<ChatChannelConfig, { type: 'slack' | 'discord' }>;

/** A channel that posts each message as JSON to the webhook URL its config names (Slack, Discord). */
export function webhookChannel(
  config: WebhookConfig,
  env: NodeJS.ProcessEnv,
  platform: Pick<ChatChannel, 'minIntervalMs' | 'render'>,
): ChatChannel {
  const url = webhookUrl(env, config.urlEnv, `chat.${config.id}.urlEnv`);
  const label = `${config.type} channel "${config.id}"`;
  return {
    id: config.id,
    type: config.type,
    secrets: [url, new URL(url).pathname],
    ...platform,
    async send(message, context) {
      await postJson({ url, label, timeoutMs: config.timeoutMs, body: message }, context);
    },
  };
}

export interface ServiceCall {
  url: string;
  /** GET when left out. */
  method?: 'POST' | 'PUT' | 'PATCH';
  /** The Authorization header's value. */
  authorization: string;
  timeoutMs: number;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * One call to a mail service's API (a configured, trusted address): the answer's JSON, or null when it is not JSON
 * (then the caller's schema says what was expected).
 */
export async function callService(call: ServiceCall, context: SendContext): Promise<unknown> {
  const json = call.body !== undefined;
  const response = await context.http.request({
    url: call.url,
    ...(call.method ? { method: call.method } : {}),
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), authorization: call.authorization },
    ...(json ? { body: JSON.stringify(call.body) } : {}),
    trusted: true,
    timeoutMs: call.timeoutMs,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  return parseJson(response.body);
}

/** The update's answer, or null when the service no longer has the draft (HTTP 404: deleted there). */
export async function unlessGone<T>(update: Promise<T>): Promise<T | null> {
  try {
    return await update;
  } catch (error) {
    if (error instanceof FetchError && error.status === 404) return null;
    throw error;
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
