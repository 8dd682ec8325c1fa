// The sample week end to end: recorded real feeds on loopback → real adapters → PGlite → extractive writer → page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { type CliRun, runDigest } from '../support/cli.js';

describe('digest demo (npm start)', () => {
  let cwd: string;
  let first: CliRun;
  let edition: Edition;
  let html: string;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-demo-'));
    first = await runDigest(['demo'], { cwd });
    edition = JSON.parse(readFileSync(join(cwd, 'drafts', '2026-05-04', 'edition.json'), 'utf8')) as Edition;
    html = readFileSync(join(cwd, 'drafts', '2026-05-04', 'index.html'), 'utf8');
  }, 120_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('exits 0 and prints the path of the page', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(join(cwd, 'drafts', '2026-05-04', 'index.html'));
  });

  it('reports every source, and the HF lists carried the week', () => {
    const ids = edition.sources.map((source) => source.id).sort();
    expect(ids).toEqual(['api-hf', 'rss-openai', 'rss-takara', 'rss-willison']);
    const hf = edition.sources.find((source) => source.id === 'api-hf')!;
    expect(hf.status).toBe('ok');
    expect(hf.items).toBeGreaterThanOrEqual(118);
    expect(first.stderr).toMatch(/✓ api-hf: \d+ item/);
  });

  it('builds 12 items shaped like the reference edition', () => {
    expect(edition.date).toBe('2026-05-04');
    expect(edition.name).toBe('LLM News Digest');
    expect(edition.writer).toBe('extractive');
    expect(edition.title).toMatch(/^[^,]+, [^,]+$/);
    expect(edition.items).toHaveLength(12);
    for (const item of edition.items) {
      expect(item.takeaways).toHaveLength(3);
      expect(new Set(item.takeaways).size).toBe(3);
      expect(['Accessible', 'Intermediate', 'Advanced']).toContain(item.level);
      expect(item.summary.split(/\s+/).length).toBeLessThanOrEqual(110);
      expect(item.url).toMatch(/^https:\/\//);
      expect(item.arxivId).toMatch(/^\d{4}\.\d{4,5}$/);
      // A paper links to arXiv, not to the mirror that carried it (tldr.takara.ai/p/<id>).
      expect(item.url).toBe(`https://arxiv.org/abs/${item.arxivId}`);
      if (item.source === 'api-hf') {
        expect(item.authors.length).toBeGreaterThan(0);
      }
      expect(
        item.publishedAt.slice(0, 10) >= '2026-04-28' && item.publishedAt.slice(0, 10) <= '2026-05-04',
      ).toBe(true);
    }
    expect(new Set(edition.items.map((item) => item.key)).size).toBe(12);
  });

  it('renders the page with the reference structure', () => {
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('May 4, 2026 · 12 papers');
    for (const item of edition.items) {
      expect(html).toContain(`arXiv:${item.arxivId}`);
      expect(html).toContain(`https://arxiv.org/abs/${item.arxivId}`);
    }
    expect(html).toContain('Takeaways');
    // Readers see the source's name, never its config id.
    expect(html).toContain('via Hugging Face Daily Papers');
    expect(html).not.toMatch(/via (api-hf|rss-[a-z]+)/);
    expect(edition.items.find((item) => item.source === 'api-hf')?.sourceName).toBe(
      'Hugging Face Daily Papers',
    );
    expect(html).not.toMatch(/<script/i);
    const archive = readFileSync(join(cwd, 'drafts', 'index.html'), 'utf8');
    expect(archive).toContain(edition.title.replace(/&/g, '&amp;'));
  });

  it('is idempotent: a rerun stores nothing twice and rewrites the same edition', async () => {
    const again = await runDigest(['demo'], { cwd });
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(
      readFileSync(join(cwd, 'drafts', '2026-05-04', 'edition.json'), 'utf8'),
    ) as Edition;
    expect(second.items.map((item) => item.key)).toEqual(edition.items.map((item) => item.key));
    expect(second.title).toBe(edition.title);
    // The demo fills the default data folder: the next command finds the week there without flags.
    expect(first.stderr).toContain(`The sample week is stored in ${join(cwd, 'data')}`);
    const list = await runDigest(['list', '--week', '2026-05-04', '--json'], { cwd });
    expect(list.code, list.stderr).toBe(0);
    const rows = (JSON.parse(list.stdout) as { candidates: { key: string }[] }).candidates;
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(118);
  }, 120_000);
});
