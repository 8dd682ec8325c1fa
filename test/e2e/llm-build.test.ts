// `digest build` with an LLM, end to end over HTTP: the real CLI, the AI SDK's OpenAI provider, a loopback fake
// OpenAI server. A rebuild makes no call; a failing provider still yields an edition, and the exit status says so.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-06-22';
const MODEL = 'openai:gpt-4.1-mini';

describe('digest build with an LLM', () => {
  let feeds: LoopbackServer;

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
  });
  afterAll(() => feeds.close());

  function project(extra: Record<string, unknown> = {}): string {
    const cwd = mkdtempSync(join(tmpdir(), 'digest-llm-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { write: MODEL, ...extra },
      }),
    );
    return cwd;
  }
  const envFor = (fake: FakeLlm) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL });

  it('writes with the model, reports usage, and rebuilds from the cache with 0 calls', async () => {
    const fake = await startFakeLlm();
    const cwd = project();
    try {
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env: envFor(fake) });
      expect(run.code, run.stderr).toBe(0);
      const edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
      expect(edition.writer).toBe(MODEL);
      expect(edition.items).toHaveLength(4);
      for (const item of edition.items) expect(item.writer).toBe(MODEL);
      expect(edition.usage).toMatchObject({
        calls: expect.any(Number),
        triage: { model: MODEL, calls: 1 },
        byPurpose: { triage: { calls: 1 }, write: { calls: 4 }, check: { calls: 4 }, edition: { calls: 1 } },
      });
      expect(fake.count('triage')).toBe(1);
      expect(fake.count('item')).toBeGreaterThanOrEqual(4);
      expect(fake.requests.every((request) => request.headers.authorization === 'Bearer test-key')).toBe(
        true,
      );
      expect(run.stderr).toMatch(/calls/i);

      const calls = fake.requests.length;
      const again = await runDigest(['build', '--week', WEEK, '--no-enrich', '--no-ingest'], {
        cwd,
        env: envFor(fake),
      });
      expect(again.code, again.stderr).toBe(0);
      expect(fake.requests.length).toBe(calls);
      const rebuilt = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
      expect(rebuilt.items.map((item) => item.summary)).toEqual(edition.items.map((item) => item.summary));
    } finally {
      await fake.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('still builds the edition when the provider fails, and exits 3 naming the fallback', async () => {
    const fake = await startFakeLlm({ script: () => ({ status: 500 }) });
    const cwd = project({ maxRetries: 0 });
    try {
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env: envFor(fake) });
      expect(run.code, run.stderr).toBe(3);
      const edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
      expect(edition.items).toHaveLength(4);
      for (const item of edition.items) expect(item.writer).toBe('extractive');
      expect(run.stderr).toMatch(/4 written extractively \(HTTP 500 ×4\)/);
      // Triage failed too: said once, and the candidates were ranked by the other signals.
      expect(run.stderr.match(/triage failed for/g)).toHaveLength(1);
      expect(run.stderr).toMatch(
        /triage failed for 18 of 18 candidate\(s\) .*500.*; they are ranked by the other signals/,
      );
      expect(fake.requests.length).toBeGreaterThan(0);
    } finally {
      await fake.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops before any work (exit 2) naming the key when the configured model has none', async () => {
    const cwd = project();
    try {
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], {
        cwd,
        env: { OPENAI_API_KEY: '' },
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/Set OPENAI_API_KEY/);
      expect(run.stderr).not.toMatch(/Ingesting/);
      expect(existsSync(join(cwd, 'drafts', WEEK, 'edition.json'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('with llm.fallback "extractive" writes extractively and says once how to configure the key', async () => {
    const cwd = project({ fallback: 'extractive' });
    try {
      const run = await runDigest(['build', '--week', WEEK, '--no-enrich'], {
        cwd,
        env: { OPENAI_API_KEY: '' },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.match(/OPENAI_API_KEY/g)?.length).toBe(1);
      const edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
      expect(edition.writer).toBe('extractive');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});
