import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DOMParser, parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { PublishError } from '../../src/core/errors.js';
import { publishSite } from '../../src/publish/publish-site.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const BASE = 'https://digest.example.org/';

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = await listFiles(dir);
  return new Map(
    await Promise.all(files.map(async (file) => [file, await readFile(join(dir, file), 'utf8')] as const)),
  );
}

describe('publishSite', () => {
  it('writes every page, the archive, feeds, search, sitemap, robots and 404 — the same bytes on a rerun', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-publish-'));
    try {
      const editions = weeklyEditions(3);
      const result = await publishSite({ fs: nodeFileSystem, outDir: dir, editions, baseUrl: BASE });
      const first = await snapshot(dir);
      expect([...first.keys()]).toEqual([
        '2026-04-20/edition.json',
        '2026-04-20/edition.md',
        '2026-04-20/index.html',
        '2026-04-27/edition.json',
        '2026-04-27/edition.md',
        '2026-04-27/index.html',
        '2026-05-04/edition.json',
        '2026-05-04/edition.md',
        '2026-05-04/index.html',
        '404.html',
        'atom.xml',
        'favicon.svg',
        'feed.json',
        'feed.xml',
        'index.html',
        'robots.txt',
        'search-index.json',
        'search.js',
        'search/index.html',
        'sitemap.xml',
      ]);
      expect(result.files).toHaveLength(20);
      expect(result.bytes).toBe([...first.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0));
      await publishSite({
        fs: nodeFileSystem,
        outDir: dir,
        editions: [...editions].reverse(),
        baseUrl: BASE,
      });
      expect(await snapshot(dir)).toEqual(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('front page leads with the newest edition and lists the archive newest first', async () => {
    const fs = memoryFileSystem();
    const editions = weeklyEditions(3);
    await publishSite({ fs, outDir: '/site', editions, baseUrl: BASE });
    const { document } = parseHTML(fs.text('/site/index.html'));
    expect(document.querySelector('.latest h2')?.textContent).toBe(editions[2]!.title);
    expect(
      Array.from(document.querySelectorAll('.archive time')).map((time) => time.getAttribute('datetime')),
    ).toEqual(['2026-05-04', '2026-04-27', '2026-04-20']);
    expect(
      document.querySelector('link[rel=alternate][type="application/atom+xml"]')?.getAttribute('href'),
    ).toBe('atom.xml');
    const page = parseHTML(fs.text('/site/2026-04-27/index.html')).document;
    expect(page.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(`${BASE}2026-04-27/`);
    expect(page.querySelector('nav a[href="../search/index.html"]')).not.toBeNull();
  });

  it('sitemap lists the front page and every edition; robots points to it; 404 links absolutely', async () => {
    const fs = memoryFileSystem();
    await publishSite({ fs, outDir: '/site', editions: weeklyEditions(2), baseUrl: BASE });
    const sitemap = new DOMParser().parseFromString(
      fs.text('/site/sitemap.xml'),
      'text/xml',
    ) as unknown as Document;
    expect(Array.from(sitemap.querySelectorAll('url > loc')).map((loc) => loc.textContent)).toEqual([
      BASE,
      `${BASE}2026-05-04/`,
      `${BASE}2026-04-27/`,
    ]);
    expect(sitemap.querySelector('url > lastmod')?.textContent).toBe('2026-05-04');
    expect(fs.text('/site/robots.txt')).toBe(`User-agent: *\nAllow: /\nSitemap: ${BASE}sitemap.xml\n`);
    const notFound = parseHTML(fs.text('/site/404.html')).document;
    expect(notFound.querySelector('h1')?.textContent).toBe('Page not found');
    expect(notFound.querySelector('main a')?.getAttribute('href')).toBe(`${BASE}index.html#archive`);
  });

  it('search index: every item with its edition and anchor, compact', async () => {
    const fs = memoryFileSystem();
    const editions = weeklyEditions(2);
    await publishSite({ fs, outDir: '/site', editions, baseUrl: BASE });
    const index = JSON.parse(fs.text('/site/search-index.json'));
    expect(index.editions).toEqual([
      ['2026-05-04', editions[1]!.title],
      ['2026-04-27', editions[0]!.title],
    ]);
    expect(index.items).toHaveLength(24);
    expect(index.items[2]).toEqual([
      0,
      'Programming with Data: Test-Driven Data Engineering for Self-Improving LLMs from Raw Corpora',
      'item-programming-with-data-test-driven-data-engineering-for-self',
      'Chenkai Pan, Xinglong Xu, Yuhang Xu',
      '2604.24819',
    ]);
    const page = parseHTML(fs.text('/site/2026-05-04/index.html')).document;
    expect(page.getElementById(index.items[2][2])).not.toBeNull();
  });

  it('needs an absolute base URL', async () => {
    await expect(
      publishSite({
        fs: memoryFileSystem(),
        outDir: '/site',
        editions: weeklyEditions(1),
        baseUrl: 'digest',
      }),
    ).rejects.toBeInstanceOf(PublishError);
  });
});
