// One ranking: for the same stored week and the same config — the demo's own file, sample/digest.config.json —
// the demo, `build`, `list --json` and the desk board choose the same items and show the same signals, and the
// board never calls an item "below the cut" while a lower-ranked one is chosen.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import type { BoardCandidate } from '../../src/desk/views/view-model.js';
import {
  SAMPLE_CONFIG,
  SAMPLE_WEEK,
  type SampleServer,
  sampleConfig,
  startSampleServer,
} from '../../src/sample/sample-week.js';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { sampleBoard } from '../support/desk-board.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';

interface ListRow {
  key: string;
  score: number;
  pinned: boolean;
  picked: boolean;
  signals: Record<string, number>;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

describe('one ranking across the demo, build, list and the desk', () => {
  let cwd: string;
  let demo: Edition;
  let built: Edition;
  let listed: ListRow[];
  let board: BoardCandidate[];
  let demoLog: string;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-one-ranking-'));
    const ran = await runDigest(['demo', '--out', 'demo-out', '--data-dir', 'data'], { cwd });
    expect(ran.code, ran.stderr).toBe(0);
    demoLog = ran.stderr;
    demo = JSON.parse(readFileSync(join(cwd, 'demo-out', SAMPLE_WEEK, 'edition.json'), 'utf8'));

    const config = ['--config', relative(cwd, SAMPLE_CONFIG), '--data-dir', 'data'];
    const build = await runDigest(
      ['build', '--week', SAMPLE_WEEK, '--offline', '--out', 'build-out', ...config],
      { cwd },
    );
    expect(build.code, build.stderr).toBe(0);
    built = JSON.parse(readFileSync(join(cwd, 'build-out', SAMPLE_WEEK, 'edition.json'), 'utf8'));

    const list = await runDigest(['list', '--week', SAMPLE_WEEK, '--json', ...config], { cwd });
    expect(list.code, list.stderr).toBe(0);
    listed = (JSON.parse(list.stdout) as { candidates: ListRow[] }).candidates;

    // The desk board's data, from the use case `digest serve` calls, on the same folder and config file.
    board = await sampleBoard(cwd, SAMPLE_CONFIG);
  }, 180_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('the demo names its config file', () => {
    expect(demoLog).toMatch(/Config: \S*sample\/digest\.config\.json \(/);
  });

  it('the demo and build choose the same items in the same order with the same signals', () => {
    expect(demo.items.length).toBeGreaterThan(5);
    expect(built.items.map((item) => item.key)).toEqual(demo.items.map((item) => item.key));
    expect(built.items.map((item) => item.why)).toEqual(demo.items.map((item) => item.why));
  });

  it('list picks what the build chose, with the signals the edition records', () => {
    const rows = new Map(listed.map((row) => [row.key, row]));
    expect(
      listed
        .filter((row) => row.picked)
        .map((row) => row.key)
        .sort(),
    ).toEqual(built.items.map((item) => item.key).sort());
    for (const item of built.items) {
      const row = rows.get(item.key)!;
      const signals = Object.fromEntries(
        Object.entries(row.signals).map(([name, value]) => [name, round(value)]),
      );
      expect(item.why).toEqual({ score: round(row.score), pinned: row.pinned, ...signals });
    }
  });

  it('the desk board ranks as list does, chooses what the build chose, and says why consistently', () => {
    expect(board.map((candidate) => candidate.key)).toEqual(listed.map((row) => row.key));
    const rows = new Map(listed.map((row) => [row.key, row]));
    for (const candidate of board) {
      const row = rows.get(candidate.key)!;
      expect(candidate.score).toBe(row.score);
      expect(candidate.relevance).toBe(row.signals.relevance ?? null);
      // Through JSON as list prints them (-0 reads as 0).
      expect(JSON.parse(JSON.stringify(candidate.signals))).toEqual(row.signals);
      expect(candidate.chosen).toBe(row.picked);
    }
    const chosenRanks = board.filter((candidate) => candidate.chosen).map((candidate) => candidate.rank);
    const lowestChosen = Math.max(...chosenRanks);
    for (const candidate of board.filter((entry) => !entry.chosen && entry.rank < lowestChosen)) {
      expect(candidate.why, `rank ${candidate.rank}`).not.toMatch(/below the cut/);
    }
    for (const candidate of board.filter((entry) => entry.chosen)) {
      expect(candidate.why).toBe(`Chosen: rank ${candidate.rank} by score.`);
    }
  });

  it('list says when the saved edition was built with another config', async () => {
    const config = ['--config', relative(cwd, SAMPLE_CONFIG), '--data-dir', 'data'];
    const same = await runDigest(['list', '--week', SAMPLE_WEEK, '--json', ...config], { cwd });
    expect(JSON.parse(same.stdout).savedDiffers).toBe(0);
    // Another config (another source weight) ranks the demo's week otherwise, and list says so.
    const sample = JSON.parse(readFileSync(SAMPLE_CONFIG, 'utf8'));
    const weighted = sample.sources.map((source: { id: string }) =>
      source.id === 'rss-takara' ? { ...source, weight: 0.5 } : source,
    );
    writeFileSync(join(cwd, 'weighted.json'), JSON.stringify({ ...sample, sources: weighted }));
    const other = await runDigest(
      ['list', '--week', SAMPLE_WEEK, '--config', 'weighted.json', '--data-dir', 'data'],
      { cwd },
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toMatch(
      /The saved edition of 2026-05-04 has \d+ item\(s\) this ranking does not pick: it was built from other data or another config/,
    );
  });

  it("list's table shows the relevance the desk shows", async () => {
    const config = ['--config', relative(cwd, SAMPLE_CONFIG), '--data-dir', 'data'];
    const table = await runDigest(['list', '--week', SAMPLE_WEEK, '--limit', '3', ...config], { cwd });
    expect(table.code, table.stderr).toBe(0);
    const [header, first] = table.stdout.split('\n');
    const columns = header!.trim().split(/\s{2,}/);
    const relevanceColumn = columns.indexOf('relevance');
    expect(relevanceColumn).toBeGreaterThan(0);
    const cells = first!
      .replace(/^[ *]\s+/, '')
      .trim()
      .split(/\s{2,}/);
    // Both start at the rank column once the (empty or "*") mark is stripped.
    expect(cells[0]).toBe('1');
    expect(Number(cells[relevanceColumn])).toBeCloseTo(board[0]!.relevance!, 2);
  });

  it('a post whose cached page names a paper is merged into it by build --offline and list alike', async () => {
    const paper = built.items[0]!.key;
    const store = await openStore({ dataDir: join(cwd, 'data') });
    let postKey: string;
    try {
      // A post that enrichment once read (its page names the paper), stored as such: the store keeps the post.
      await store.items.upsert([
        {
          sourceId: 'rss-willison',
          url: 'https://blog.example.com/posts/on-that-paper',
          title: 'Notes on a paper of the week',
          text: 'A long look at the paper and what it means for evaluation in practice.',
          authors: [],
          arxivId: null,
          image: null,
          publishedAt: '2026-05-01T09:30:00.000Z',
          upvotes: null,
        },
      ]);
      const post = (await store.items.get('url:https://blog.example.com/posts/on-that-paper'))!;
      postKey = post.key;
      await store.cache.put({
        namespace: 'enrich:page',
        key: post.canonicalUrl,
        value: {
          image: null,
          text: `See arXiv:${paper.slice('arxiv:'.length)}.`,
          arxivId: paper.slice('arxiv:'.length),
        },
      });
    } finally {
      await store.close();
    }
    const config = ['--config', relative(cwd, SAMPLE_CONFIG), '--data-dir', 'data'];
    const build = await runDigest(
      ['build', '--week', SAMPLE_WEEK, '--offline', '--out', 'merged-out', ...config],
      { cwd },
    );
    expect(build.code, build.stderr).toBe(0);
    const rebuilt = JSON.parse(
      readFileSync(join(cwd, 'merged-out', SAMPLE_WEEK, 'edition.json'), 'utf8'),
    ) as Edition;
    const list = await runDigest(['list', '--week', SAMPLE_WEEK, '--json', ...config], { cwd });
    const { candidates, excluded } = JSON.parse(list.stdout) as {
      candidates: ListRow[];
      excluded: { key: string; reason: string }[];
    };
    expect(excluded).toContainEqual({ key: postKey!, reason: `merged into ${paper}` });
    expect(candidates.map((row) => row.key)).not.toContain(postKey!);
    expect(rebuilt.items.map((item) => item.key)).not.toContain(postKey!);
    expect(
      candidates
        .filter((row) => row.picked)
        .map((row) => row.key)
        .sort(),
    ).toEqual(rebuilt.items.map((item) => item.key).sort());
  }, 60_000);
});

describe('one ranking with LLM triage', () => {
  let cwd: string;
  let sample: SampleServer;
  let fake: FakeLlm;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-one-ranking-llm-'));
    [sample, fake] = await Promise.all([startSampleServer(), startFakeLlm()]);
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({ ...sampleConfig(sample.origin), llm: { write: 'openai:gpt-4.1-mini' } }),
    );
  });
  afterAll(async () => {
    await Promise.all([sample.close(), fake.close()]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it('build --offline and list rank with the triage the online build got, asking no model', async () => {
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL };
    const online = await runDigest(['build', '--week', SAMPLE_WEEK, '--no-check', '--out', 'online'], {
      cwd,
      env,
    });
    expect(online.code, online.stderr).toBe(0);
    expect(fake.count('triage')).toBeGreaterThan(0);
    const asked = fake.requests.length;
    const edition = (out: string) =>
      JSON.parse(readFileSync(join(cwd, out, SAMPLE_WEEK, 'edition.json'), 'utf8')) as Edition;
    const built = edition('online');
    expect(built.items.some((item) => typeof item.why?.triage === 'number')).toBe(true);

    const offline = await runDigest(['build', '--week', SAMPLE_WEEK, '--offline', '--out', 'offline'], {
      cwd,
      env,
    });
    expect(offline.code, offline.stderr).toBe(0);
    const list = await runDigest(['list', '--week', SAMPLE_WEEK, '--json'], { cwd, env });
    expect(list.code, list.stderr).toBe(0);
    expect(fake.requests).toHaveLength(asked);

    const rebuilt = edition('offline');
    expect(rebuilt.items.map((item) => item.key)).toEqual(built.items.map((item) => item.key));
    expect(rebuilt.items.map((item) => item.why)).toEqual(built.items.map((item) => item.why));
    const rows = (JSON.parse(list.stdout) as { candidates: ListRow[] }).candidates;
    expect(
      rows
        .filter((row) => row.picked)
        .map((row) => row.key)
        .sort(),
    ).toEqual(built.items.map((item) => item.key).sort());
  }, 120_000);
});
