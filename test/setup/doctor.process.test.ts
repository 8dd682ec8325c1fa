// `digest doctor` through the real CLI: it names a rejected key (a loopback fake answering 401), an unreachable source
// and an unreachable SMTP server, each with its fix, and exits 2; against loopback fixtures, a real SMTP server
// (smtp-server, with a login) and a real local engine (llama.cpp through node-llama-cpp) all is well: exit 0.
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load-config.js';
import { type DoctorReport, doctor } from '../../src/setup/doctor.js';
import { runDigest } from '../support/cli.js';
import { announceSkip } from '../support/environment.js';
import { startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { freePort, type LoopbackServer, startLoopback } from '../support/loopback.js';
import { engineProblem, startRealEngine } from '../support/real-engine.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

function project(config: Record<string, unknown>): string {
  const cwd = mkdtempSync(join(tmpdir(), 'digest-doctor-'));
  mkdirSync(join(cwd, 'data'));
  chmodSync(join(cwd, 'data'), 0o700);
  writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify(config));
  return cwd;
}

let feeds: LoopbackServer;
const cleanup: string[] = [];

beforeAll(async () => {
  const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
  feeds = await startLoopback((_, response) => {
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
  });
});
afterAll(async () => {
  await feeds.close();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('digest doctor names what is wrong, with the fix', () => {
  it('a rejected key, an unreachable source, fallback model and SMTP server: exit 2, each with its fix', async () => {
    const fake = await startFakeLlm({ script: () => ({ status: 401 }) });
    const [deadFeed, deadSmtp, deadOllama] = [await freePort(), await freePort(), await freePort()];
    const cwd = project({
      http: { allowLoopback: true },
      sources: [
        { id: 'rss-ok', type: 'feed', url: feeds.url('/feed.xml') },
        { id: 'rss-dead', type: 'feed', url: `http://127.0.0.1:${deadFeed}/feed.xml` },
      ],
      llm: { write: 'openai:gpt-4.1-mini', fallbacks: ['ollama:qwen3:8b'] },
      publish: {
        baseUrl: 'https://digest.example.org',
        email: { from: 'Digest <news@example.org>', smtp: { host: '127.0.0.1', port: deadSmtp } },
      },
    });
    cleanup.push(cwd);
    try {
      const started = performance.now();
      const run = await runDigest(['doctor'], {
        cwd,
        env: {
          OPENAI_API_KEY: 'wrong-key',
          OPENAI_BASE_URL: fake.baseURL,
          OLLAMA_BASE_URL: `http://127.0.0.1:${deadOllama}/v1`,
          DIGEST_SECRET: SECRET,
        },
      });
      expect(performance.now() - started).toBeLessThan(60_000);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      const out = run.stdout;
      expect(out).toMatch(/✓ source rss-ok: HTTP 200/);
      expect(out).toMatch(/✗ source rss-dead: unreachable: .*\n {4}fix: check sources\[1\]\.url/);
      expect(out).toMatch(
        /✗ model openai:gpt-4\.1-mini: writes: key rejected.*\n {4}fix: the server refused the key: check OPENAI_API_KEY/,
      );
      expect(out).toMatch(
        new RegExp(`✗ smtp 127\\.0\\.0\\.1:${deadSmtp}: unreachable: .*\\n {4}fix: nothing answers SMTP at`),
      );
      expect(out).toMatch(
        /✗ model ollama:qwen3:8b: fallback: unreachable .*\n {4}fix: nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1/,
      );
      expect(out).toMatch(
        /4 problem\(s\): source rss-dead, model openai:gpt-4\.1-mini, model ollama:qwen3:8b, smtp 127\.0\.0\.1:\d+\n/,
      );
      expect(fake.requests[0]?.headers.authorization).toBe('Bearer wrong-key');
    } finally {
      await fake.close();
    }
  }, 90_000);

  it('a model served on a port fetch refuses: that is what it says, and how to fix it', async () => {
    const cwd = project({
      sources: [{ id: 'rss-ok', type: 'feed', url: feeds.url('/feed.xml') }],
      http: { allowLoopback: true },
      llm: { write: 'ollama:qwen3:8b' },
    });
    cleanup.push(cwd);
    // 6000 (X11) is on the blocked list: undici refuses it before connecting ("bad port").
    const run = await runDigest(['doctor'], {
      cwd,
      env: { OLLAMA_BASE_URL: 'http://127.0.0.1:6000/v1', DIGEST_SECRET: SECRET },
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout).toMatch(
      /✗ model ollama:qwen3:8b: writes: on a port fetch refuses \(bad port\)\n {4}fix: http:\/\/127\.0\.0\.1:6000\/v1 is on a port fetch never connects to: serve the model on another port/,
    );
  });

  it('an invalid config: exit 2 naming the field, nothing else checked', async () => {
    const cwd = project({ itemsPerEdition: 0, sources: [] });
    cleanup.push(cwd);
    const run = await runDigest(['doctor', '--json'], { cwd, env: {} });
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.checks).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ area: 'config', status: 'fail' });
    expect(report.problems[0]?.detail).toMatch(/itemsPerEdition/);
  });
});

describe('doctor() as a use case (what digest init calls)', () => {
  it('a model that ignores the array size, a data folder others can read, an embeddings model that answers', async () => {
    // An OpenAI-compatible server that answers 2 items where the schema asks for exactly 3.
    const server = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: '{"items":["red","blue"]}' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 },
        }),
      );
    });
    const embeddings = await startFakeLlm();
    const cwd = project({});
    cleanup.push(cwd);
    chmodSync(join(cwd, 'data'), 0o755);
    try {
      const report = await doctor({
        cwd,
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: embeddings.baseURL },
        now: new Date('2026-06-22T08:00:00Z'),
        config: parseConfig({
          sources: [],
          llm: {
            write: 'openai-compatible:m',
            openaiCompatible: { baseURL: `${server.origin}/v1` },
            embed: 'openai:text-embedding-3-small',
          },
          publish: { baseUrl: 'https://digest.example.org' },
        }),
      });
      const byArea = (area: string) => report.checks.find((entry) => entry.area === area);
      expect(byArea('model')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/asked for exactly 3 items, got 2/),
        fix: expect.stringMatching(/array sizes/),
      });
      const sent = JSON.parse(server.requests.find((request) => request.method === 'POST')?.body ?? '{}');
      expect(sent.response_format.json_schema.schema.properties.items).toMatchObject({
        minItems: 3,
        maxItems: 3,
      });
      expect(byArea('data')).toMatchObject({ status: 'fail', fix: `chmod 700 ${join(cwd, 'data')}` });
      expect(byArea('embeddings')).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(/^64 dimensions/),
      });
      expect(byArea('secret')).toMatchObject({ status: 'warn' });
      expect(report.problems.map((entry) => entry.area)).toEqual(['data', 'model']);
      expect(report.estimate).toBeUndefined();
    } finally {
      await server.close();
      await embeddings.close();
    }
  });
});

describe('doctor() on mail settings', () => {
  it('a server without STARTTLS while requireTls is on: the STARTTLS step is named, with the fix', async () => {
    const smtp = new SMTPServer({ disabledCommands: ['STARTTLS', 'AUTH'], logger: false });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    try {
      const report = await doctor({
        cwd: tmpdir(),
        env: {},
        now: new Date('2026-06-22T08:00:00Z'),
        config: parseConfig({
          sources: [],
          publish: { email: { from: 'Digest <news@example.org>', smtp: { host: '127.0.0.1', port } } },
        }),
      });
      expect(report.checks.find((entry) => entry.area === 'smtp')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/^starttls failed: /),
        fix: expect.stringMatching(/STARTTLS: use port 465/),
      });
      expect(report.checks.find((entry) => entry.area === 'dkim')).toMatchObject({ status: 'warn' });
      // Mail is set up, but nothing says who sends it.
      expect(report.checks.find((entry) => entry.area === 'identity')).toMatchObject({
        name: 'postalAddress',
        status: 'warn',
        fix: expect.stringMatching(/publish\.identity\.postalAddress/),
      });
      expect(report.dnsRecords).toEqual([
        'example.org TXT "v=spf1 a:127.0.0.1 ~all"   (or your mail provider\'s include:…)',
        '_dmarc.example.org TXT "v=DMARC1; p=none; rua=mailto:dmarc@example.org"',
      ]);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

const problem = await engineProblem();
if (problem) announceSkip('e2e/doctor (real engine)', problem);

describe.skipIf(problem !== null)('digest doctor on a working set-up', () => {
  it('loopback feed, real SMTP server with a login, real local engine, DKIM key: exit 0 and the DNS records', async () => {
    const engine = await startRealEngine();
    const logins: string[] = [];
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'digest' && auth.password === 'smtp-pass')
          return callback(null, { user: 'digest' });
        callback(new Error('Invalid username or password'));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const cwd = project({
      itemsPerEdition: 4,
      http: { allowLoopback: true },
      sources: [{ id: 'rss-ok', type: 'feed', url: feeds.url('/feed.xml') }],
      llm: { write: 'openai-compatible:tiny-llama', openaiCompatible: { baseURL: engine.baseURL } },
      publish: {
        baseUrl: 'https://digest.example.org',
        email: {
          from: 'Digest <news@example.org>',
          smtp: { host: '127.0.0.1', port: smtpPort, requireTls: false, user: 'digest' },
          dkim: { domainName: 'example.org', keySelector: 'digest' },
        },
      },
    });
    cleanup.push(cwd);
    try {
      const env = {
        DIGEST_SECRET: SECRET,
        DIGEST_SMTP_PASSWORD: 'smtp-pass',
        DIGEST_DKIM_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      };
      const run = await runDigest(['doctor'], { cwd, env });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/All is well\./);
      expect(run.stdout).toMatch(
        /✓ model openai-compatible:tiny-llama: writes: answered 3 of 3 items asked, [\d.]+ s, \d+ tokens\/s \(prompt \d+ tokens\/s\), 1 slot\(s\)/,
      );
      expect(run.stdout).toMatch(
        /This week's build with openai-compatible:tiny-llama \(rough\): 10 calls, .*\$0\.00/,
      );
      expect(run.stdout).toMatch(/smtp 127\.0\.0\.1:\d+: EHLO accepted, not encrypted, AUTH accepted/);
      expect(logins).toEqual(['digest:smtp-pass']);
      const dkimRecord = `digest._domainkey.example.org TXT "v=DKIM1; k=rsa; p=${publicKey
        .export({ type: 'spki', format: 'der' })
        .toString('base64')}"`;
      expect(run.stdout).toContain(dkimRecord);
      expect(run.stdout).toContain('example.org TXT "v=spf1 a:127.0.0.1 ~all"');
      expect(run.stdout).toContain('_dmarc.example.org TXT "v=DMARC1; p=none');
      // The structured call reached the engine's grammar with the array size it asked for.
      const [exchange] = engine.exchanges();
      expect(JSON.parse(exchange?.text ?? '{}').items).toHaveLength(3);

      const json = await runDigest(['doctor', '--json'], {
        cwd,
        env: { ...env, DIGEST_SMTP_PASSWORD: 'wrong' },
      });
      expect(json.code).toBe(2);
      const report = JSON.parse(json.stdout) as DoctorReport;
      expect(report.problems).toEqual([
        expect.objectContaining({
          area: 'smtp',
          status: 'fail',
          fix: expect.stringMatching(/DIGEST_SMTP_PASSWORD/),
        }),
      ]);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await engine.close();
    }
  }, 90_000);

  it('the real engine started with an API key: a wrong key is named, with the setting that holds it', async () => {
    const engine = await startRealEngine({ apiKey: 'engine-key' });
    const cwd = project({
      sources: [],
      llm: {
        write: 'openai-compatible:tiny-llama',
        openaiCompatible: { baseURL: engine.baseURL, apiKeyEnv: 'LLAMA_API_KEY' },
      },
      publish: { baseUrl: 'https://digest.example.org' },
    });
    cleanup.push(cwd);
    try {
      const wrong = await runDigest(['doctor'], { cwd, env: { LLAMA_API_KEY: 'not-the-key' } });
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toMatch(
        /✗ model openai-compatible:tiny-llama: writes: key rejected .*\n {4}fix: the server refused the key: check LLAMA_API_KEY/,
      );
      const right = await runDigest(['doctor'], { cwd, env: { LLAMA_API_KEY: 'engine-key' } });
      expect(right.code, right.stdout).toBe(0);
      expect(right.stdout).toMatch(
        /✓ model openai-compatible:tiny-llama: writes: answered 3 of 3 items asked/,
      );
    } finally {
      await engine.close();
    }
  }, 60_000);
});

// What `digest init --yes` writes passes doctor once the SMTP catcher answers; doctor reads configuration as every
// other command does (the one loader: the file, then DIGEST_CONFIG_JSON over it; two config files named).
describe('digest doctor after digest init --yes', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let catcherFeeds: LoopbackServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-doctor-init-'));
    smtp = await startSmtp();
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    catcherFeeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    // The network: the sources on a loopback server, as CI runs the README — through the documented variable.
    env = {
      DIGEST_CONFIG_JSON: JSON.stringify({
        http: { allowLoopback: true },
        sources: [{ id: 'rss-willison', type: 'feed', url: catcherFeeds.url('/feed.xml') }],
      }),
    };
    const init = await runDigest(['init', '--yes', '--smtp', `127.0.0.1:${smtp.port}`], { cwd, env });
    expect(init.code, init.stdout + init.stderr).toBe(0);
  });
  afterAll(async () => {
    await Promise.all([smtp.close(), catcherFeeds.close()]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it('passes with a local SMTP catcher: exit 0, the sender accepted for it', async () => {
    const run = await runDigest(['doctor'], { cwd, env });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /✓ smtp from: LLM News Digest <digest@digest.localhost> \(fine for a mail catcher/,
    );
    expect(run.stdout).toMatch(/All is well\./);
  });

  it('reads DIGEST_CONFIG_JSON over the file, as build does, and says so', async () => {
    const run = await runDigest(['doctor', '--json'], {
      cwd,
      env: {
        DIGEST_CONFIG_JSON: JSON.stringify({ llm: { write: 'openai:gpt-4.1-mini' } }),
        OPENAI_API_KEY: '',
      },
    });
    const report = JSON.parse(run.stdout) as { checks: { area: string; detail: string; status: string }[] };
    expect(report.checks[0]!.detail).toMatch(/digest\.config\.json with DIGEST_CONFIG_JSON over it is valid/);
    // The model comes from the variable: its missing key is what doctor names (without it, "llm.write is not set").
    expect(JSON.stringify(report.checks)).toMatch(/OPENAI_API_KEY/);
    expect(run.code).toBe(2);
  });

  it('with a second config file beside the .json, doctor and every other command name the one used', async () => {
    writeFileSync(join(cwd, 'digest.config.js'), 'export default { name: "From JS" };\n');
    try {
      const doctor = await runDigest(['doctor'], { cwd, env });
      expect(doctor.stdout).toMatch(
        /! config: .*digest\.config\.js with DIGEST_CONFIG_JSON over it is valid; Config: digest\.config\.js \(digest\.config\.json in the same folder is ignored/,
      );
      // A read-only command needs a data folder that exists (it never creates one).
      mkdirSync(join(cwd, 'data'), { recursive: true });
      const list = await runDigest(['list', '--week', '2026-05-04'], { cwd, env });
      expect(list.stderr).toMatch(
        /Config: digest\.config\.js \(digest\.config\.json in the same folder is ignored/,
      );
    } finally {
      rmSync(join(cwd, 'digest.config.js'));
    }
  });

  it('a reserved sender with a real (non-local) SMTP server fails, naming the field', async () => {
    const run = await runDigest(['doctor', '--json'], {
      cwd,
      env: {
        DIGEST_CONFIG_JSON: JSON.stringify({
          publish: {
            email: { from: 'Digest <news@example.com>', smtp: { host: 'mail.invalid', port: 587 } },
          },
        }),
      },
    });
    expect(run.stdout).toMatch(
      /publish\.email\.from is \\"Digest <news@example\.com>\\": mail needs a sender on your own domain/,
    );
  });
});
