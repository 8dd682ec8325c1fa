// The server section of the config and the serve command's flags: errors name the field, exit 2.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePortFlag, resolveListen } from '../../src/cli/commands/serve-command.js';
import { parseConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { runDigest } from '../support/cli.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';

describe('server config', () => {
  it('defaults to 127.0.0.1:8080 without a proxy', () => {
    expect(parseConfig({}).server).toEqual({
      host: '127.0.0.1',
      port: 8080,
      trustProxy: false,
      subscribePerMinute: 10,
      welcomeMail: false,
      webhookSecretEnv: 'DIGEST_WEBHOOK_SECRET',
      softBounceLimit: 3,
      apiPerMinute: 120,
      mcpPerMinute: 60,
      deskWritesPerMinute: 60,
      metricsTokenEnv: 'DIGEST_METRICS_TOKEN',
      outbox: {
        retryDelayMs: 30_000,
        maxRetryDelayMs: 3_600_000,
        maxAttempts: 15,
        pollMs: 5_000,
        leaseSeconds: 300,
      },
    });
  });

  it('names the bad field', () => {
    expect(() => parseConfig({ server: { port: 70000 } })).toThrow(
      /server\.port: must be a whole number from 0 to 65535/,
    );
    expect(() => parseConfig({ server: { port: '80' } })).toThrow(/server\.port/);
    expect(() => parseConfig({ server: { baseUrl: 'ftp://x.example' } })).toThrow(/server\.baseUrl/);
    expect(() => parseConfig({ server: { trustProxy: 'yes' } })).toThrow(/server\.trustProxy/);
    expect(() => parseConfig({ server: { deskWritesPerMinute: 0 } })).toThrow(/server\.deskWritesPerMinute/);
    expect(() => parseConfig({ server: { deskWritesPerMinute: 2.5 } })).toThrow(
      /server\.deskWritesPerMinute/,
    );
    expect(() => parseConfig({ server: { outbox: { messagesPerSecond: 0 } } })).toThrow(
      /server\.outbox\.messagesPerSecond/,
    );
    expect(() => parseConfig({ server: { hots: 'x' } })).toThrow(/server: unknown field\(s\) "hots"/);
    // The operator's listener is loopback only: its endpoints answer there without a token.
    for (const metricsListen of ['0.0.0.0:9464', '203.0.113.9:9464', '9464', '127.0.0.1:99999']) {
      expect(() => parseConfig({ server: { metricsListen } }), metricsListen).toThrow(
        /server\.metricsListen/,
      );
    }
    expect(parseConfig({ server: { metricsListen: '[::1]:0' } }).server.metricsListen).toBe('[::1]:0');
  });

  it('flags over PORT over the config', () => {
    const server = parseConfig({ server: { host: '0.0.0.0', port: 9000 } }).server;
    expect(resolveListen({}, {}, server)).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(resolveListen({}, { PORT: '3000' }, server)).toEqual({ host: '0.0.0.0', port: 3000 });
    expect(resolveListen({ port: 4000, host: '::1' }, { PORT: '3000' }, server)).toEqual({
      host: '::1',
      port: 4000,
    });
    expect(() => parsePortFlag('80x')).toThrow(/expected a port number from 0 to 65535/);
    expect(() => parsePortFlag('65536')).toThrow(/expected a port number/);
    expect(parsePortFlag('0')).toBe(0);
    expect(() => resolveListen({}, { PORT: '65536' }, server)).toThrow(ConfigError);
    expect(() => resolveListen({}, { PORT: '65536' }, server)).toThrow(/^PORT must be a port number/);
  });
});

describe('digest serve refuses bad input before opening anything', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'digest-serve-config-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('exits 2 naming --port, PORT or the config field', async () => {
    const flag = await runDigest(['serve', '--port', 'eighty'], { cwd, env: { DIGEST_SECRET: SECRET } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(
      /option '--port <port>' argument 'eighty' is invalid.*port number from 0 to 65535/,
    );
    const env = await runDigest(['serve'], { cwd, env: { DIGEST_SECRET: SECRET, PORT: '-1' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('PORT must be a port number');
    writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify({ server: { port: 123456 } }));
    const config = await runDigest(['serve'], { cwd, env: { DIGEST_SECRET: SECRET, PORT: '' } });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('server.port');
    writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify({ server: { deskWritesPerMinute: -5 } }));
    const desk = await runDigest(['serve'], { cwd, env: { DIGEST_SECRET: SECRET, PORT: '' } });
    expect(desk.code).toBe(2);
    expect(desk.stderr).toContain('server.deskWritesPerMinute');
    rmSync(join(cwd, 'digest.config.json'));
  });

  it('exits 2 with how to create DIGEST_SECRET when it is missing or short', async () => {
    const missing = await runDigest(['serve', '--port', '0'], { cwd, env: { DIGEST_SECRET: '' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/DIGEST_SECRET is not set.*openssl rand -base64 48/);
    const short = await runDigest(['serve', '--port', '0'], { cwd, env: { DIGEST_SECRET: 'short' } });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/DIGEST_SECRET is too short/);
  });
});
