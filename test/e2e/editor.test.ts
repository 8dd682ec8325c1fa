// The editor's controls end to end: `digest add` (a page and an arXiv id), `digest skip`, and the build that
// pins manual items first with "via the editors".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-06-22';

// A synthetic article page (built here, not recorded): og tags and enough prose for Readability.
const PAGE = `<!doctype html><html><head><title>Fine-Tuning for an Exam Quality Tutor</title>
<meta property="og:title" content="Fine-Tuning for an Exam Quality Tutor">
<meta property="og:description" content="What it took to fine-tune a 27B model as a personal tutor.">
<meta property="og:image" content="https://images.example.org/tutor.png">
</head><body><article><h1>Fine-Tuning for an Exam Quality Tutor</h1>
<p>I fine-tuned a 27B parameter model to tutor me for an exam, and this post records what it took.</p>
<p>The first attempt used a small dataset of past questions and produced answers that sounded right but were often wrong.</p>
<p>Rebuilding the dataset around worked solutions made the tutor explain its steps, which mattered more than its final answers.</p>
<p>Training ran on two rented GPUs for a weekend, and most of the time went into evaluating checkpoints by hand.</p>
</article></body></html>`;

describe('editor controls', () => {
  let server: LoopbackServer;
  let cwd: string;

  beforeAll(async () => {
    const arxiv = readFixture('real', 'arxiv-api', 'query_cs.LG_OR_cs.AI_20_2026-04-30.xml');
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    server = await startLoopback((request, response) => {
      if (request.path === '/post/tutor')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      if (request.path === '/api/query')
        return void response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(arxiv);
      if (request.path === '/feed.xml')
        return void response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
      response.writeHead(404).end();
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-editor-'));
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        sources: [{ id: 'rss-willison', type: 'feed', url: server.url('/feed.xml') }],
        // Manual URLs are untrusted: only this test lets them reach loopback.
        http: { allowLoopback: true, retries: 0 },
        enrich: { arxivApiUrl: server.url('/api/query'), arxivHtmlUrl: server.url('/html/') },
      }),
    );
  });
  afterAll(async () => {
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('adds a page and an arXiv paper, skips an item, and builds with manual items first', async () => {
    const page = await runDigest(
      ['add', server.url('/post/tutor'), '--week', WEEK, '--note', 'reader favourite'],
      { cwd },
    );
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toContain('Fine-Tuning for an Exam Quality Tutor');
    const paper = await runDigest(['add', '2604.26951', '--week', WEEK], { cwd });
    expect(paper.code, paper.stderr).toBe(0);
    expect(paper.stdout).toContain('arxiv:2604.26951');

    const first = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(first.code, first.stderr).toBe(0);
    let edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
    const manual = edition.items.filter((item) => item.source === 'manual');
    expect(manual).toHaveLength(2);
    expect(manual.map((item) => item.key)).toContain('arxiv:2604.26951');
    expect(edition.items.slice(0, 2).every((item) => item.source === 'manual')).toBe(true);
    const tutor = manual.find((item) => item.title.startsWith('Fine-Tuning'))!;
    expect(tutor.image).toBe('https://images.example.org/tutor.png');
    expect(tutor.takeaways).toHaveLength(3);
    const html = readFileSync(join(cwd, 'drafts', WEEK, 'index.html'), 'utf8').replace(/<[^>]+>/g, '');
    expect(html).toContain('via the editors');

    const victim = edition.items.find((item) => item.source === 'rss-willison')!;
    const skip = await runDigest(['skip', victim.key, '--week', WEEK], { cwd });
    expect(skip.code, skip.stderr).toBe(0);
    const second = await runDigest(['build', '--week', WEEK, '--offline', '--no-enrich', '--no-ingest'], {
      cwd,
    });
    expect(second.code, second.stderr).toBe(0);
    edition = JSON.parse(readFileSync(join(cwd, 'drafts', WEEK, 'edition.json'), 'utf8')) as Edition;
    expect(edition.items.map((item) => item.key)).not.toContain(victim.key);
    expect(edition.items.filter((item) => item.source === 'manual')).toHaveLength(2);
  }, 120_000);

  it('refuses a manual URL that points at a private address when loopback is not allowed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-ssrf-'));
    try {
      const run = await runDigest(['add', 'http://169.254.169.254/latest/meta-data/', '--week', WEEK], {
        cwd: dir,
      });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/not public|private|link-local|refus|block/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
