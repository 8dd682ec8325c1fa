// `digest eval` end to end: the week's picks written by two models (a loopback fake provider) and the extractive
// writer, compared; the answers are cached (a rerun asks nothing); an unfaithful model is called out (exit 3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvaluation } from '../../src/editions/eval.js';
import { runDigest } from '../support/cli.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-06-22';

describe('digest eval', () => {
  let feeds: LoopbackServer;
  let fake: FakeLlm;
  let cwd: string;
  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    // The "nano" model states a claim its source never makes; the "mini" one writes faithfully.
    fake = await startFakeLlm({
      script: (request) => (request.kind === 'item' && /nano/.test(request.model) ? 'unfaithful' : 'valid'),
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-eval-'));
    const config = (extra: Record<string, unknown>) =>
      writeFileSync(
        join(cwd, 'digest.config.json'),
        JSON.stringify({
          itemsPerEdition: 3,
          sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
          ...extra,
        }),
      );
    // The week is built extractively (no model configured yet: --offline would not ask the sources).
    config({});
    const built = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(built.code, built.stderr).toBe(0);
    config({ llm: { write: 'openai:gpt-4.1-mini', check: 'openai:gpt-4.1-mini' } });
  });
  afterAll(async () => {
    await fake.close();
    await feeds.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('compares models on the same picks, caches their answers, and calls out the unfaithful one', async () => {
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL };
    const args = ['eval', '--week', WEEK, '--models', 'openai:gpt-4.1-mini,openai:gpt-4.1-nano,extractive'];
    const run = await runDigest([...args, '--json'], { cwd, env });
    expect(run.code, run.stderr).toBe(3);
    const reports = JSON.parse(run.stdout) as ModelEvaluation[];
    const [mini, nano, extractive] = reports;
    expect(reports.map((report) => report.model)).toEqual([
      'openai:gpt-4.1-mini',
      'openai:gpt-4.1-nano',
      'extractive',
    ]);
    expect(mini!.items).toBe(3);
    expect(mini!.calls).toBeGreaterThanOrEqual(3);
    expect(mini!.flaggedClaims).toBe(0);
    expect(nano!.flaggedClaims).toBeGreaterThan(0);
    expect(nano!.superlatives).not.toContain('fastest');
    expect(extractive!.calls).toBe(0);
    expect(extractive!.firstPersonItems).toBe(0);
    expect(mini!.levels.Accessible + mini!.levels.Intermediate + mini!.levels.Advanced).toBe(3);

    const calls = fake.requests.length;
    const again = await runDigest(args, { cwd, env });
    expect(fake.requests.length).toBe(calls);
    expect(again.stdout).toMatch(/flagged claims/);
    expect(again.stdout).toMatch(/openai:gpt-4\.1-nano/);
  }, 120_000);

  it('names a bad --models value (exit 2) before any work', async () => {
    const run = await runDigest(['eval', '--models', 'gpt4 turbo'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--models.*provider:model/);
  });
});
