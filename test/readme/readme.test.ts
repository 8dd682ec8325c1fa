// The README and every page of docs/, run as written: every ```sh command (and the cron line) runs through the real
// CLI, in a fresh folder per README section and per docs page, and must exit 0 (a block marked
// `<!-- readme-test: skip — reason -->` says why it is not run); a `digest serve` the README or docs/service.md starts
// is then used as a reader would — the page's subscribe form, a POST, the confirmation mail on a loopback SMTP server,
// its link. Documentation that drifts from the program fails here.
//
// What differs from a reader's machine, and only this:
// - the network: DIGEST_CONFIG_JSON (a documented setting) points the sources at the recorded sample week on loopback
//   and turns enrichment off (its services are not recorded); the eval's models are a loopback fake LLM (their
//   *_BASE_URL and keys in the environment); two addresses are rewritten (REWRITES) to loopback servers;
// - the clock: today is 2026-05-05, so "the most recent Monday" is the recorded week;
// - `./digest …` (the clone's link to bin/digest.js) and `npm start` run the CLI in this process (runCli: bin/digest.js's code path), except
//   `digest serve`, which is the real bin/digest.js process on a free port (PORT) instead of 8080 (with the real
//   clock: it only serves); `npm install` is skipped (this checkout is installed).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { type SampleServer, sampleConfig, startSampleServer } from '../../src/sample/sample-week.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { freePort, type LoopbackServer, startLoopback } from '../support/loopback.js';
import { type ReadmeBlock, type ReadmeCommand, readmeBlocks } from '../support/readme.js';
import { type LoopbackSmtp, linkIn, startSmtp } from '../support/smtp-inbox.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const SECTIONS = ['Quick start', 'Using it every week'] as const;
const DOCS = new URL('../../docs/', import.meta.url);
const docsPage = (name: string) => readFileSync(new URL(name, DOCS), 'utf8');
/**
 * The pages with a block to run. docs/service.md has its own test below (a reader subscribes); every other page runs
 * after init and the demo.
 */
const DOC_PAGES = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md') && name !== 'service.md')
  .filter((name) => readmeBlocks(docsPage(name), 'all').some((block) => !block.skip))
  .sort();
const TODAY = new Date('2026-05-05T09:00:00Z');
const BIN = fileURLToPath(new URL('../../bin/digest.js', import.meta.url));

const PAGE = `<!doctype html><html><head><title>Why evals drift in production</title>
<meta property="og:title" content="Why evals drift in production">
<meta property="og:description" content="Notes on keeping offline evaluations honest.">
</head><body><article><h1>Why evals drift in production</h1>
<p>Offline evaluation sets age as the traffic they were drawn from changes, and the scores keep looking fine.</p>
<p>Sampling a slice of live requests every week and labelling it by hand showed where the set had gone stale.</p>
<p>The fix was boring: a refresh schedule, a changelog for the set, and a dashboard that shows its age.</p>
</article></body></html>`;

class Capture extends Writable {
  text = '';
  private waiters: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    for (const waiter of [...this.waiters]) {
      const match = waiter.pattern.exec(this.text);
      if (match) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
    callback();
  }
  when(pattern: RegExp): Promise<RegExpExecArray> {
    const match = pattern.exec(this.text);
    return match ? Promise.resolve(match) : new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }
}

interface Served {
  url: string;
  stderr: Capture;
  stop(): Promise<number>;
}

describe('README', () => {
  let sample: SampleServer;
  let pages: LoopbackServer;
  let smtp: LoopbackSmtp;
  let llm: FakeLlm;
  let rewrites: Record<string, string>;
  const used = new Set<string>();
  const folders: string[] = [];

  beforeAll(async () => {
    if (!existsSync(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))))
      throw new Error('dist/ is missing: run "npm run build" (npm run test:all does)');
    vi.useFakeTimers({ toFake: ['Date'], now: TODAY, shouldAdvanceTime: true });
    sample = await startSampleServer();
    const arxiv = readFixture('real', 'arxiv-api', 'query_cs.LG_OR_cs.AI_20_2026-04-30.xml');
    pages = await startLoopback((request, response) => {
      if (request.path === '/post')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      if (request.path === '/api/query')
        return void response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(arxiv);
      response.writeHead(404).end();
    });
    smtp = await startSmtp();
    llm = await startFakeLlm();
    rewrites = {
      'https://example.com/post': pages.url('/post'),
      '127.0.0.1:1025': `127.0.0.1:${smtp.port}`,
    };
  }, 60_000);

  afterAll(async () => {
    vi.useRealTimers();
    await Promise.all([sample?.close(), pages?.close(), smtp?.close(), llm?.close()]);
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** The environment every README command gets: the sources on loopback, the fake LLM's keys, nothing of ours. */
  function environment(extra: Record<string, unknown> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DIGEST_CONFIG_JSON: JSON.stringify({
        sources: sampleConfig(sample.origin).sources,
        http: { allowLoopback: true, retries: 0 },
        enrich: { enabled: false, arxivApiUrl: pages.url('/api/query') },
        ...extra,
      }),
      OPENAI_API_KEY: 'readme-key',
      OPENAI_BASE_URL: llm.baseURL,
      ANTHROPIC_API_KEY: 'readme-key',
      ANTHROPIC_BASE_URL: llm.baseURL,
    };
    for (const name of ['DATABASE_URL', 'DIGEST_DATA_DIR', 'DIGEST_SECRET', 'PORT', 'DIGEST_EDITOR_PASSWORD'])
      delete env[name];
    return env;
  }

  function argvOf(command: ReadmeCommand): string[] | null {
    const argv = command.argv.map((word) => {
      let rewritten = word;
      for (const [from, to] of Object.entries(rewrites)) {
        if (rewritten.includes(from)) used.add(from);
        rewritten = rewritten.replace(from, to);
      }
      return rewritten;
    });
    if (argv[0] === './digest') return argv.slice(1);
    if (argv.join(' ') === 'npm start') return ['demo'];
    if (argv.join(' ') === 'npm install') return null;
    throw new Error(
      `README runs "${command.text}": this test knows only ./digest, npm start and npm install`,
    );
  }

  /** Runs a section's blocks in one fresh folder; a `digest serve` keeps running for the blocks after it. */
  async function runSection(blocks: ReadmeBlock[], env: NodeJS.ProcessEnv, ...setUp: string[][]) {
    const cwd = mkdtempSync(join(tmpdir(), 'digest-readme-'));
    folders.push(cwd);
    const log: string[] = [];
    for (const argv of setUp) {
      const [stdout, stderr] = [new Capture(), new Capture()];
      expect(await runCli(argv, { stdout, stderr, cwd, env }), stderr.text).toBe(0);
    }
    let served: Served | null = null;
    try {
      for (const block of blocks) {
        if (block.skip) continue;
        for (const line of block.lines) {
          for (const command of line) {
            const argv = argvOf(command);
            if (!argv) continue;
            const runEnv = { ...env, ...command.env };
            if (argv[0] === 'serve') {
              served = await startServe(argv, cwd, runEnv);
              continue;
            }
            const stdout = new Capture();
            const stderr = new Capture();
            const code = await runCli(argv, { stdout, stderr, cwd, env: runEnv });
            log.push(`$ ${command.text}\n${stdout.text}${stderr.text}`);
            // eval exits 3 when a model wrote a sentence its source does not back: the fake LLM's canned answer has one.
            const allowed = argv[0] === 'eval' ? [0, 3] : [0];
            expect(
              allowed.includes(code) ? 0 : code,
              `README line ${block.line}+: "${command.text}" exited ${code}:\n${stdout.text}\n${stderr.text}`,
            ).toBe(0);
          }
        }
      }
      return { cwd, served, log };
    } catch (error) {
      await served?.stop();
      throw error;
    }
  }

  const isInit = (command: ReadmeCommand) => command.argv[0] === './digest' && command.argv[1] === 'init';

  /** A newsletter already set up (by the README's `digest init`): its address, its mail server, .env's secret. */
  function initArgv(): string[] {
    return ['init', '--yes', '--base-url', 'https://digest.example.com/', '--smtp', `127.0.0.1:${smtp.port}`];
  }

  /** `digest serve` is the real bin/digest.js process (the other commands reach its database as a reader's would). */
  async function startServe(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Served> {
    const stdout = new Capture();
    const stderr = new Capture();
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(stdout);
    child.stderr.pipe(stderr);
    const exit = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    const listening = await Promise.race([
      stdout.when(/^(http:\/\/\S+)\n/),
      exit.then((code) => {
        throw new Error(`digest serve exited ${code} before listening:\n${stderr.text}`);
      }),
    ]);
    return {
      url: listening[1]!,
      stderr,
      stop: async () => {
        child.kill('SIGTERM');
        return exit;
      },
    };
  }

  /** A reader on the served site: the form on the pages, a POST, the confirmation mail, its link. */
  async function subscribeThrough(served: Served, cwd: string, reader: string) {
    expect(served.stderr.text).not.toContain('subscribing is off');
    for (const [path, action] of [
      ['', 'subscribe'],
      ['2026-05-04/', '../subscribe'],
    ]) {
      const page = await (await fetch(`${served.url}${path}`)).text();
      expect(page, `GET /${path}`).toContain(`<form class="search-form" method="post" action="${action}">`);
    }
    // The config's base URL (what `digest init` wrote) is the origin the page's form posts from.
    const config = JSON.parse(readFileSync(join(cwd, 'digest.config.json'), 'utf8')) as {
      publish: { baseUrl: string };
    };
    const origin = new URL(config.publish.baseUrl).origin;
    const mails = smtp.received.length;
    const answer = await fetch(`${served.url}subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ email: reader, website: '' }).toString(),
    });
    expect(answer.status).toBe(200);
    const mail = await smtp.next(mails + 1);
    expect(mail.to).toEqual([reader]);
    const confirm = new URL(linkIn(mail, `${origin}/confirm?token=`));
    // The link opens a page with a button (a link scanner confirms nobody); the button's POST confirms.
    const page = await fetch(new URL(`${confirm.pathname}${confirm.search}`, served.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="token"');
    const token = confirm.searchParams.get('token') ?? '';
    const confirmed = await fetch(`${served.url}confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, accept: 'application/json' },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(await confirmed.json()).toEqual({ status: 'confirmed' });
    // …and the reader receives the edition: `digest send` (what the README's cron line runs after publish).
    const stdout = new Capture();
    const stderr = new Capture();
    expect(await runCli(['send'], { stdout, stderr, cwd, env: environment() }), stderr.text).toBe(0);
    const edition = smtp.received.find(
      (received) => received.to.includes(reader) && (received.parsed.text ?? '').includes('/2026-05-04/'),
    );
    expect(edition, `no edition mail to ${reader}:\n${stdout.text}${stderr.text}`).toBeDefined();
  }

  it('lists the sections and pages it runs, each has commands, and the README has no block outside them', () => {
    expect(DOC_PAGES).toEqual([
      'configuration.md',
      'desk.md',
      'operations.md',
      'publishing.md',
      'sending.md',
      'weekly.md',
    ]);
    const blocks = readmeBlocks(README, SECTIONS);
    for (const section of SECTIONS)
      expect(
        blocks.some((block) => block.section === section),
        section,
      ).toBe(true);
    expect(readmeBlocks(README, 'all')).toHaveLength(blocks.length);
  });

  it("./digest, the README's command, is the clone's bin/digest.js: one node process, no npm beside it", async () => {
    const link = fileURLToPath(new URL('../../digest', import.meta.url));
    expect(readlinkSync(link)).toBe('bin/digest.js');
    const child = spawn(link, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('quick start, offline: npm start builds the sample week into ./data and its draft into ./drafts', async () => {
    const [offline] = readmeBlocks(README, ['Quick start']);
    const { cwd } = await runSection([offline!], environment());
    expect(readFileSync(join(cwd, 'drafts', '2026-05-04', 'index.html'), 'utf8')).toContain(
      'via Hugging Face',
    );
    // A build is a draft: the site `digest serve` serves is only written by `digest publish`.
    expect(existsSync(join(cwd, 'out', '2026-05-04'))).toBe(false);
  }, 120_000);

  it('quick start, the service: init, demo, publish, serve — and a reader subscribes', async () => {
    const [, service] = readmeBlocks(README, ['Quick start']);
    const { cwd, served } = await runSection([service!], environment());
    expect(served, 'the set-up starts digest serve').not.toBeNull();
    try {
      await subscribeThrough(served!, cwd, 'ada@example.org');
    } finally {
      expect(await served!.stop()).toBe(0);
    }
  }, 180_000);

  it('weekly use: every command, then the cron line', async () => {
    const blocks = readmeBlocks(README, ['Using it every week']);
    const { log } = await runSection(blocks, environment(), initArgv());
    expect(log.some((entry) => entry.startsWith('$ ./digest eval'))).toBe(true);
    expect(used).toContain('https://example.com/post');
    expect(blocks.filter((block) => block.skip)).toEqual([]);
  }, 300_000);

  it('docs/service.md: init, build, publish, serve, the subscribers commands, and a reader subscribes', async () => {
    const blocks = readmeBlocks(docsPage('service.md'), 'all');
    const { cwd, served, log } = await runSection(blocks, environment());
    expect(served, 'the page starts digest serve').not.toBeNull();
    try {
      await subscribeThrough(served!, cwd, 'grace@example.org');
      expect(log.find((entry) => entry.includes('subscribers export'))).toContain('ada@example.org');
    } finally {
      expect(await served!.stop()).toBe(0);
    }
    expect(used).toContain('127.0.0.1:1025');
  }, 240_000);

  // Each page in a newsletter already set up (digest init, its address, its mail server) with the demo week built.
  for (const page of DOC_PAGES) {
    it(`docs/${page}: every sh block runs, or says why not`, async () => {
      const blocks = readmeBlocks(docsPage(page), 'all');
      // A page that runs `digest init` itself (configuration.md) starts from an empty folder.
      const initsItself = blocks.some((block) => !block.skip && block.lines.flat().some(isInit));
      const setUp = initsItself ? [] : [initArgv(), ['demo']];
      const { cwd, served, log } = await runSection(blocks, environment(), ...setUp);
      if (served) {
        if (page === 'desk.md')
          expect(log.find((entry) => entry.includes('editors add'))).toContain(`store: ${join(cwd, 'data')}`);
        expect(await served.stop()).toBe(0);
      }
    }, 240_000);
  }
});
