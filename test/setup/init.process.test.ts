// `digest init --yes …`: a config that loads, a private .env with a fresh secret the CLI then reads, checks that can
// fail (the SMTP server is a real one on loopback), and no overwriting without --force.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDotEnv, withDotEnv } from '../../src/config/dotenv.js';
import { loadConfig } from '../../src/config/index.js';
import { type CliRun, runDigest } from '../support/cli.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';

const BIN = fileURLToPath(new URL('../../bin/digest.js', import.meta.url));

describe('digest init', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let run: CliRun;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-init-'));
    smtp = await startSmtp();
    run = await runDigest(
      [
        'init',
        '--yes',
        '--name',
        'Agents Weekly',
        '--base-url',
        'https://agents.example.org/',
        '--sources',
        'api-hf,rss-willison,https://www.interconnects.ai/feed',
        '--model',
        'anthropic:claude-haiku-4-5',
        '--smtp',
        `127.0.0.1:${smtp.port}`,
        '--postal-address',
        'Agents Weekly, 1 Main Street, Springfield 12345',
      ],
      { cwd, env: { ANTHROPIC_API_KEY: '' } },
    );
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('writes a config that loads as answered', async () => {
    expect(run.code, run.stderr).toBe(0);
    const { config, file } = await loadConfig({ cwd });
    expect(file).toBe(join(cwd, 'digest.config.json'));
    expect(config.name).toBe('Agents Weekly');
    expect(config.sources.map((source) => [source.id, source.url])).toEqual([
      ['api-hf', 'https://huggingface.co/api/daily_papers'],
      ['rss-willison', 'https://simonwillison.net/atom/everything/'],
      ['rss-interconnects', 'https://www.interconnects.ai/feed'],
    ]);
    expect(config.llm.write).toBe('anthropic:claude-haiku-4-5');
    expect(config.publish.baseUrl).toBe('https://agents.example.org/');
    // A reserved domain (example.org) is nobody's sender: the local one, which only a mail catcher takes.
    expect(config.publish.email.from).toBe('Agents Weekly <digest@digest.localhost>');
    // A loopback mail catcher speaks no TLS; the config says so instead of failing the first mail.
    expect(config.publish.email.smtp).toMatchObject({
      host: '127.0.0.1',
      port: smtp.port,
      requireTls: false,
    });
    expect(config.publish.identity.postalAddress).toBe('Agents Weekly, 1 Main Street, Springfield 12345');
  });

  it('writes a private .env with a fresh secret of 48 bytes, and a placeholder for the missing key', () => {
    const envFile = join(cwd, '.env');
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const values = parseDotEnv(readFileSync(envFile, 'utf8'));
    expect(Buffer.from(values.DIGEST_SECRET ?? '', 'base64')).toHaveLength(48);
    expect(readFileSync(envFile, 'utf8')).toMatch(/^# ANTHROPIC_API_KEY=$/m);
  });

  it('checks what it can, and prints the next commands, doctor and the schedule line', () => {
    expect(run.stdout).toContain(`✓ the SMTP server at 127.0.0.1:${smtp.port} answers`);
    expect(run.stdout).toContain('✗ ANTHROPIC_API_KEY is not set');
    expect(run.stdout).toMatch(/\.\/digest build[\s\S]*\.\/digest publish[\s\S]*\.\/digest serve/);
    expect(run.stdout).toContain('./digest doctor');
    expect(run.stdout).toContain(`0 7 * * 1  cd ${cwd} && ./digest build && ./digest publish`);
  });

  it('refuses to overwrite without --force (exit 2), and an unreachable SMTP server is a failed check', async () => {
    const again = await runDigest(['init', '--yes'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/digest\.config\.json already exists.*--force/);
    const before = readFileSync(join(cwd, '.env'), 'utf8');
    const closed = await runDigest(['init', '--yes', '--force', '--smtp', '127.0.0.1:1'], { cwd });
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/✗ the SMTP server at 127\.0\.0\.1:1: .*ECONNREFUSED/);
    // The config is fine (exit 0, docs/exit-status.md); what to do next is said.
    expect(closed.stdout).toMatch(
      /readers cannot subscribe .*Next: start a mail catcher on port 1 .*then run \.\/digest doctor/s,
    );
    expect(readFileSync(join(cwd, '.env'), 'utf8')).not.toBe(before);
  });

  it('names a bad answer and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-init-bad-'));
    try {
      const bad = await runDigest(['init', '--yes', '--sources', 'api-hf,not-a-source'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('"not-a-source" is neither a known source');
      const badUrl = await runDigest(['init', '--yes', '--base-url', 'ftp://x.example'], { cwd: dir });
      expect(badUrl.code).toBe(2);
      expect(badUrl.stderr).toContain('publish.baseUrl');
      expect(() => statSync(join(dir, '.env'))).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('digest init, asked', () => {
  it('takes the answers from stdin (Enter keeps a default), piped all at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-init-asked-'));
    try {
      const child = spawn(process.execPath, [BIN, 'init'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end('My News\n\n\nopenai:gpt-4.1-mini\nsk-test\n\n\n');
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, stdout).toBe(0);
      const { config } = await loadConfig({ cwd: dir });
      expect(config.name).toBe('My News');
      expect(config.publish.baseUrl).toBe('http://127.0.0.1:8080/');
      expect(config.llm.write).toBe('openai:gpt-4.1-mini');
      expect(config.publish.email.smtp).toBeUndefined();
      expect(parseDotEnv(readFileSync(join(dir, '.env'), 'utf8')).OPENAI_API_KEY).toBe('sk-test');
      expect(stdout).toContain('✓ OPENAI_API_KEY is set');
      // The default http base URL is a note (fine on this machine), not a problem; no SMTP server is one.
      expect(stdout).toContain('! http://127.0.0.1:8080/ is fine for trying');
      expect(stdout).toContain('✗ no SMTP server');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('.env', () => {
  it('is read beneath the real environment: a variable already set wins, even empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-dotenv-'));
    try {
      const text = 'export A=1\n# B=2\nC="two words"\nD=\'x#y\'\nE=plain # comment\n';
      expect(parseDotEnv(text)).toEqual({ A: '1', C: 'two words', D: 'x#y', E: 'plain' });
      writeFileSync(join(dir, '.env'), text);
      expect(withDotEnv(dir, { A: '', Z: 'z' })).toMatchObject({ A: '', C: 'two words', Z: 'z' });
      expect(withDotEnv(join(dir, 'nowhere'), { Z: 'z' })).toEqual({ Z: 'z' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
