// Learned taste from an embeddings model, end to end: the real CLI, the AI SDK's OpenAI provider and the loopback
// fake's /v1/embeddings. A week built with no history asks nothing; after an edition is published, the next week is
// ranked with embeddings taste (each text embedded once: a rebuild asks nothing); a failing model is a warning and
// tf-idf; an embeddings model Anthropic does not have is a config error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const HISTORY_WEEK = '2026-06-22';
const WEEK = '2026-06-29';
const MODEL = 'openai:text-embedding-3-small';

describe('learned taste with an embeddings model', () => {
  let feeds: LoopbackServer;
  let fake: FakeLlm;
  let cwd: string;
  const config = (llm: Record<string, unknown>) =>
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { maxRetries: 0, ...llm },
      }),
    );
  const digest = (args: string[]) =>
    runDigest(args, { cwd, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL } });
  const edition = () =>
    JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
  const sent = () => fake.embeddings.flatMap((request) => request.input);

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    fake = await startFakeLlm();
    cwd = mkdtempSync(join(tmpdir(), 'digest-embed-'));
    config({ embed: MODEL });
  });
  afterAll(async () => {
    await feeds.close();
    await fake.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('asks the embeddings model nothing while there is no history, and says nothing about it', async () => {
    const run = await digest(['build', '--week', HISTORY_WEEK, '--no-enrich']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.embeddings).toHaveLength(0);
    expect(run.stderr).not.toMatch(/learned taste|embedding/i);
    const published = await digest([
      'publish',
      '--week',
      HISTORY_WEEK,
      '--out',
      'out',
      '--base-url',
      'https://digest.example.com',
    ]);
    expect(published.code, published.stderr).toBe(0);
  }, 120_000);

  it('ranks the next week with taste learned from embeddings, each text embedded once', async () => {
    const run = await digest(['build', '--week', WEEK, '--no-enrich']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/learned taste/);
    const built = edition();
    // The week's candidates were embedded up front (and the history's items).
    for (const item of built.items)
      expect(sent().some((text) => text.startsWith(`${item.title}\n\n`))).toBe(true);
    expect(new Set(sent()).size).toBe(sent().length);
    for (const item of built.items) {
      expect(item.why?.taste).toEqual(expect.any(Number));
      expect(item.why?.tasteShare).toBeGreaterThan(0);
    }
    expect(run.stderr).toMatch(/for embed/);

    const list = await digest(['list', '--week', WEEK]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/taste/);
    const taste = await digest(['taste', '--week', WEEK, '--json']);
    expect(taste.code, taste.stderr).toBe(0);
    const report = JSON.parse(taste.stdout);
    expect(report).toMatchObject({
      learnedWith: `embeddings:${MODEL}`,
      positiveTerms: [],
      negativeTerms: [],
    });
    expect(report.positiveTitles.length).toBeGreaterThan(0);
    const text = await digest(['taste', '--week', WEEK]);
    expect(text.stdout).toMatch(/learned with embeddings:openai:text-embedding-3-small/);
    expect(text.stdout).toMatch(/Embeddings have no terms/);

    const requests = fake.embeddings.length;
    const again = await digest(['build', '--week', WEEK, '--no-enrich', '--no-ingest']);
    expect(again.code, again.stderr).toBe(0);
    const tastes = (items: Edition['items']) => items.map((item) => item.why?.taste);
    expect(fake.embeddings).toHaveLength(requests);
    expect(tastes(edition().items)).toEqual(tastes(built.items));
    // Offline, the stored vectors still teach the same taste.
    const offline = await digest(['build', '--week', WEEK, '--offline', '--no-ingest']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).not.toMatch(/learned taste/);
    expect(fake.embeddings).toHaveLength(requests);
    expect(tastes(edition().items)).toEqual(tastes(built.items));
  }, 120_000);

  it('warns in one line and learns with tf-idf when the embeddings model fails; the build goes on', async () => {
    await fake.close();
    fake = await startFakeLlm({ embeddingScript: () => ({ status: 500 }) });
    // Another model: nothing of it is stored, so the build has to ask.
    config({ embed: 'openai:text-embedding-3-large' });
    const run = await digest(['build', '--week', WEEK, '--no-enrich', '--no-ingest']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.embeddings.length).toBeGreaterThan(0);
    expect(run.stderr).toMatch(
      /learned taste: embeddings model openai:text-embedding-3-large failed \(HTTP 500: fake 500\); using tf-idf this run/,
    );
    for (const item of edition().items) expect(item.why?.taste).toEqual(expect.any(Number));
    const taste = await digest(['taste', '--week', WEEK, '--json']);
    expect(JSON.parse(taste.stdout)).toMatchObject({ learnedWith: 'tf-idf', positiveTitles: [] });
    // `list` never calls a model: without stored vectors it says so and ranks with tf-idf.
    const requests = fake.embeddings.length;
    const list = await digest(['list', '--week', WEEK]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/not embedded yet, and this run uses stored vectors only\); using tf-idf/);
    expect(fake.embeddings).toHaveLength(requests);
  }, 120_000);

  it('exits 2 naming llm.embed for a provider without embeddings', async () => {
    config({ embed: 'anthropic:claude-haiku-4-5' });
    const run = await digest(['build', '--week', WEEK, '--offline']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/llm\.embed: Anthropic has no embeddings model/);
  });
});
