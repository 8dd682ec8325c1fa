// The delivery config rejects what it cannot use, naming the field; the HTTP client keeps secret-carrying URLs out
// of its messages and reads a rate limit's wait from the JSON body when there is no Retry-After header.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { ConfigError, FetchError } from '../../src/core/errors.js';
import { retryAfterFromBody } from '../../src/net/_retry.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

function issues(input: unknown): string[] {
  try {
    parseConfig(input);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('delivery config', () => {
  it('names each bad field', () => {
    expect(issues({ chat: [{ id: 'a', type: 'slack' }] })).toEqual([
      'chat[0].urlEnv: Invalid input: expected string, received undefined',
    ]);
    expect(issues({ chat: [{ id: 'a', type: 'irc', urlEnv: 'X' }] })[0]).toMatch(/^chat\[0\]\.type: /);
    // A webhook URL pasted into the config is refused: secrets live in the environment.
    expect(
      issues({ chat: [{ id: 'a', type: 'slack', urlEnv: 'X', url: 'https://hooks.slack.com/x' }] }),
    ).toEqual(['chat[0]: unknown field(s) "url"']);
    expect(issues({ chat: [{ id: 'a', type: 'slack', urlEnv: 'https://hooks.slack.com/x' }] })[0]).toMatch(
      /^chat\[0\]\.urlEnv: the name of an environment variable/,
    );
    expect(issues({ chat: [{ id: 'a', type: 'telegram', tokenEnv: 'T', chatId: 'general' }] })).toEqual([
      'chat[0].chatId: a numeric chat id or "@channelname"',
    ]);
    expect(
      issues({
        chat: [
          { id: 'a', type: 'slack', urlEnv: 'X' },
          { id: 'a', type: 'discord', urlEnv: 'Y' },
        ],
      }),
    ).toEqual(['chat[1].id: duplicate channel id "a"']);
    expect(issues({ push: { listmonk: { url: 'ftp://x', listIds: [] }, mailchimp: {} } })).toEqual([
      'push.listmonk.url: must be an http(s) URL',
      'push.listmonk.listIds: name at least one list id',
      'push: unknown field(s) "mailchimp"',
    ]);
  });

  it('fills defaults', () => {
    const config = parseConfig({
      chat: [{ id: 'tg', type: 'telegram', tokenEnv: 'TG', chatId: '-100123' }],
      push: { buttondown: {} },
    });
    expect(config.chat[0]).toEqual({
      id: 'tg',
      type: 'telegram',
      tokenEnv: 'TG',
      chatId: '-100123',
      apiUrl: 'https://api.telegram.org',
      timeoutMs: 15_000,
    });
    expect(config.push.buttondown).toEqual({
      url: 'https://api.buttondown.com',
      tokenEnv: 'BUTTONDOWN_API_KEY',
      timeoutMs: 15_000,
    });
    expect(parseConfig({}).chat).toEqual([]);
  });
});

describe('HTTP client for secret-carrying URLs', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('names a labelled URL by its label in errors and retry logs', async () => {
    server = await startLoopback((_, response) => void response.writeHead(500).end());
    const lines: string[] = [];
    const client = createHttpClient({
      timeoutMs: 2000,
      maxBytes: 1024,
      retries: 1,
      log: { info: () => {}, warn: () => {}, debug: (line) => lines.push(line) },
      backoff: { sleep: async () => {} },
    });
    const url = server.url('/bot123:SECRET-TOKEN/sendMessage');
    const error = (await client
      .request({ url, method: 'POST', body: '{}', trusted: true, label: 'telegram channel "tg"' })
      .catch((caught: unknown) => caught)) as FetchError;
    expect(error).toBeInstanceOf(FetchError);
    expect(error.message).toBe(
      'HTTP 500 from telegram channel "tg" after 2 attempts: the server is failing; try again later',
    );
    expect(error.url).toBe('telegram channel "tg"');
    expect(lines.join('\n')).toContain('retrying POST telegram channel "tg"');
    expect(`${lines.join('\n')}${error.message}${String(error.cause ?? '')}`).not.toContain('SECRET-TOKEN');
  });

  it('reads retry_after from a 429 body (Telegram, Discord) when no Retry-After header is sent', async () => {
    let calls = 0;
    server = await startLoopback((_, response) => {
      calls++;
      if (calls === 1)
        return void response
          .writeHead(429, { 'content-type': 'application/json' })
          .end('{"ok":false,"error_code":429,"parameters":{"retry_after":4}}');
      response.writeHead(200).end('{"ok":true}');
    });
    const waits: number[] = [];
    const client = createHttpClient({
      timeoutMs: 2000,
      maxBytes: 1024,
      retries: 2,
      backoff: {
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    });
    const response = await client.request({
      url: server.url('/x'),
      method: 'POST',
      body: '{}',
      trusted: true,
    });
    expect(response.status).toBe(200);
    expect(waits).toEqual([4000]);
    expect(retryAfterFromBody('{"retry_after": 0.64}')).toBe(640);
    expect(retryAfterFromBody('not json')).toBeNull();
    expect(retryAfterFromBody('null')).toBeNull();
    expect(retryAfterFromBody('{"retry_after": -1}')).toBeNull();
  });
});
