// `--offline` makes no network request: every host a build could reach (the sources, arXiv, Semantic Scholar, the
// image CDN, the LLM provider) is this one loopback server, which counts what reaches it. The sources are the
// bundled sample week's recorded HF lists (sample/week-2026-05-04, see its PROVENANCE.md), served with their
// thumbnail host pointed at the same server so an image fetch would be counted too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { SAMPLE_DIR } from '../../src/sample/sample-week.js';
import { runDigest } from '../support/cli.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';

const WEEK = '2026-05-04';
const THUMBNAILS = 'https://cdn-thumbnails.huggingface.co';

describe('--offline', () => {
  let server: LoopbackServer;
  let cwd: string;
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url('/llm/v1') });
  const config = (extra: Record<string, unknown>) =>
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        sources: [{ id: 'api-hf', type: 'hf-daily-papers-rss', url: server.url('/hf-daily/{date}.xml') }],
        http: { allowLoopback: true, retries: 0 },
        enrich: {
          enabled: true,
          arxivApiUrl: server.url('/arxiv/query'),
          semanticScholarUrl: server.url('/s2'),
          arxivHtmlUrl: server.url('/html/'),
        },
        ...extra,
      }),
    );

  beforeAll(async () => {
    server = await startLoopback((request, response) => {
      const day = /^\/hf-daily\/(\d{4}-\d{2}-\d{2})\.xml$/.exec(request.path)?.[1];
      if (day) {
        // The capture taken just after midnight of day D+1 holds HF's list of day D.
        const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        try {
          const file = join(SAMPLE_DIR, 'hf-daily', `hf-daily-rss-huangboming_${next}.xml`);
          const body = readFileSync(file, 'utf8').replaceAll(THUMBNAILS, server.origin);
          return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
        } catch {}
      }
      response.writeHead(404).end();
    });
    cwd = mkdtempSync(join(tmpdir(), 'digest-offline-'));
    config({});
    // The week is stored first, by a build that asks the sources (and nothing else).
    const stored = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd });
    expect(stored.code, stored.stderr).toBe(0);
    expect(server.requests.some((request) => request.path.startsWith('/hf-daily/'))).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('builds from what is stored with no request to any host, and says what it skipped', async () => {
    config({ llm: { write: 'openai:gpt-4.1-mini', check: 'openai:gpt-4.1-mini' } });
    server.requests.length = 0;
    const run = await runDigest(['build', '--week', WEEK, '--offline', '--out', 'offline-out'], {
      cwd,
      env: env(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.map((request) => request.url)).toEqual([]);
    expect(run.stderr).toContain(
      'Offline: skipped asking the sources (stored items are used), enrichment (arXiv, Semantic Scholar, pages) and item images.',
    );
    expect(run.stderr).not.toMatch(/warning/i);
    const edition = JSON.parse(
      readFileSync(join(cwd, 'offline-out', WEEK, 'edition.json'), 'utf8'),
    ) as Edition;
    expect(edition.items.length).toBeGreaterThan(0);
    expect(edition.writer).toBe('extractive');
  }, 60_000);

  it('is the server standing in for those hosts: the same build online asks it', async () => {
    // Papers are not read in full here: arXiv's one request every 3 s would make that 12 × 3 s (full-text-build and
    // full-text test it, offline too).
    config({ llm: { fullText: false } });
    server.requests.length = 0;
    const run = await runDigest(['build', '--week', WEEK, '--no-ingest', '--out', 'online-out'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const paths = server.requests.map((request) => request.path);
    expect(paths.some((path) => path.startsWith('/arxiv/'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/s2'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/social-thumbnails/'))).toBe(true);
  }, 60_000);

  it('adds a stored arXiv paper with no request, and refuses one that is not stored', async () => {
    server.requests.length = 0;
    const added = await runDigest(['add', '2604.24902', '--week', WEEK, '--offline'], { cwd });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('(arxiv:2604.24902) to the edition of 2026-05-04');
    // Without --offline a stored paper is found first too: no arXiv look-up.
    const again = await runDigest(['add', 'https://arxiv.org/abs/2604.24902v2', '--week', WEEK], { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toEqual([]);

    const missing = await runDigest(['add', '2601.00001', '--week', WEEK, '--offline'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('"2601.00001" is not stored, and --offline makes no network request');
    expect(missing.stderr).not.toContain('check the id');
    expect(server.requests).toEqual([]);
  }, 60_000);
});
