// The one LLM client end to end: answers that failed validation are cached (a rebuild asks nothing), a call that hung
// while others were in flight is asked again in a smaller window (no item lost to it), an item whose answers break
// the schema falls back (exit 3), `list` ranks with the build's cached triage without a call, and `--retry-failed`
// against a healthy server asks again only what failed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { type FakeBehaviour, type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-06-22';
const MODEL = 'openai:gpt-4.1-mini';

describe('the LLM llmClient from the CLI', () => {
  let feeds: LoopbackServer;
  let cwd: string;
  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-llm-retry-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { write: MODEL, maxRetries: 0, timeoutMs: 1500 },
      }),
    );
  });
  afterAll(async () => {
    await feeds.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  const env = (fake: FakeLlm) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL });
  const edition = () =>
    JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;

  it('caches invalid answers, asks a hung call again, lists the build picks, and repairs with --retry-failed', async () => {
    // First build: every answer about one item breaks the schema (its repair too); the first check hangs.
    let victim: string | null = null;
    const script = (request: { kind: string; user: string }, index: number): FakeBehaviour => {
      if (request.kind === 'item') {
        victim ??= request.user.slice(0, 300);
        if (request.user.startsWith(victim)) return 'schema-violation';
      }
      if (request.kind === 'check' && index === 0) return 'hang';
      return 'valid';
    };
    const broken = await startFakeLlm({ script });
    let firstCalls: number;
    try {
      const started = Date.now();
      const first = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env: env(broken) });
      expect(first.code, first.stderr).toBe(3);
      // The hung check ends within 2× its timeout, not never.
      expect(Date.now() - started).toBeLessThan(60_000);
      const written = edition();
      expect(written.items).toHaveLength(4);
      expect(written.items.filter((item) => item.writer === 'extractive')).toHaveLength(1);
      // The hung check timed out beside other calls: asked again with fewer in flight, and answered.
      expect(first.stderr).toMatch(/1 call\(s\) timed out in the server's queue and were asked again/);
      expect(first.stderr).toMatch(/1 written extractively \(takeaways not 3 ×1\)/);
      firstCalls = broken.requests.length;

      // A rebuild asks no answered call again, the unusable ones included.
      const counts = () => ({
        item: broken.count('item'),
        triage: broken.count('triage'),
        check: broken.count('check'),
      });
      const before = counts();
      const again = await runDigest(['build', '--week', WEEK, '--no-enrich', '--no-ingest'], {
        cwd,
        env: env(broken),
      });
      expect(again.code, again.stderr).toBe(3);
      expect(counts()).toEqual(before);
      firstCalls = broken.requests.length;

      // `list` shows the build's ranking from the cached triage, and asks no model.
      const list = await runDigest(['list', '--week', WEEK, '--json'], { cwd, env: env(broken) });
      expect(list.code, list.stderr).toBe(0);
      expect(broken.requests.length).toBe(firstCalls);
      const listed = JSON.parse(list.stdout) as {
        triage: { model: string } | null;
        candidates: { key: string; picked: boolean }[];
      };
      expect(listed.triage?.model).toBe(MODEL);
      const picked = listed.candidates.filter((row) => row.picked).map((row) => row.key);
      expect(new Set(picked)).toEqual(new Set(edition().items.map((item) => item.key)));
    } finally {
      await broken.close();
    }

    // A healthy server and --retry-failed: only the calls whose answers failed are asked again.
    const healthy = await startFakeLlm();
    try {
      const retry = await runDigest(
        ['build', '--week', WEEK, '--no-enrich', '--no-ingest', '--retry-failed'],
        {
          cwd,
          env: env(healthy),
        },
      );
      expect(retry.code, retry.stderr).toBe(0);
      expect(healthy.count('triage')).toBe(0);
      // The one item whose answers were unusable, then its check.
      expect(healthy.count('item')).toBe(1);
      expect(healthy.count('check')).toBe(1);
      for (const item of edition().items) expect(item.writer).toBe(MODEL);
    } finally {
      await healthy.close();
    }
  }, 180_000);
});
