import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { PublishError } from '../../src/core/errors.js';
import type { EditionSummary } from '../../src/core/ports.js';
import { renderEditionJson } from '../../src/publish/edition-json.js';
import { nodeFileSystem, writeEditionFiles } from '../../src/publish/write-site.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { referenceEdition } from '../support/reference-edition.js';

const OLDER: EditionSummary[] = [
  { date: '2026-04-27', name: 'LLM News Digest', title: 'Older <week>', itemCount: 1, publishedAt: null },
  { date: '2026-04-20', name: 'LLM News Digest', title: 'Oldest week', itemCount: 12, publishedAt: null },
];

describe('writeEditionFiles', () => {
  it('writes edition.json, the edition page and the front page with the archive newest first', async () => {
    const fs = memoryFileSystem();
    const edition = referenceEdition();
    await writeEditionFiles({
      fs,
      outDir: '/out',
      edition,
      editions: OLDER,
      options: { siteName: 'LLM News Digest' },
    });
    expect([...fs.files.keys()].sort()).toEqual([
      '/out/2026-05-04/edition.json',
      '/out/2026-05-04/index.html',
      '/out/index.html',
    ]);
    const json = JSON.parse(fs.text('/out/2026-05-04/edition.json'));
    expect(Object.keys(json)).toEqual(['date', 'name', 'title', 'intro', 'writer', 'items', 'sources']);
    expect(Object.keys(json.items[0]).slice(0, 12)).toEqual([
      'title',
      'url',
      'level',
      'authors',
      'summary',
      'takeaways',
      'source',
      'sources',
      'arxivId',
      'citations',
      'image',
      'publishedAt',
    ]);
    const front = parseHTML(fs.text('/out/index.html')).document;
    expect(front.querySelector('.latest h2 a')?.getAttribute('href')).toBe('2026-05-04/index.html');
    expect(front.querySelector('.latest')?.textContent).toContain(edition.intro);
    const archive = Array.from(front.querySelectorAll('.archive li a')).map((a) => a.textContent);
    expect(archive).toEqual([edition.title, 'Older <week>', 'Oldest week']);
  });

  it('lists an older rebuilt week in the archive while the newest stays the front page lead', async () => {
    const fs = memoryFileSystem();
    const edition = { ...referenceEdition(), date: '2026-04-13' };
    await writeEditionFiles({ fs, outDir: '/out', edition, editions: OLDER });
    const front = parseHTML(fs.text('/out/index.html')).document;
    expect(front.querySelector('.latest h2 a')?.textContent).toBe('Older <week>');
    expect(front.querySelectorAll('.archive li')).toHaveLength(3);
  });

  it('rewrites the same bytes on disk when run twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-site-'));
    try {
      await writeEditionFiles({
        fs: nodeFileSystem,
        outDir: dir,
        edition: referenceEdition(),
        editions: OLDER,
      });
      const first = await readFile(join(dir, 'index.html'));
      const json = await readFile(join(dir, '2026-05-04', 'edition.json'), 'utf8');
      await writeEditionFiles({
        fs: nodeFileSystem,
        outDir: dir,
        edition: referenceEdition(),
        editions: OLDER,
      });
      expect((await readFile(join(dir, 'index.html'))).equals(first)).toBe(true);
      expect(json).toBe(renderEditionJson(referenceEdition()));
      expect(json.endsWith('}\n')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an edition date that is not a plain day', async () => {
    const edition = { ...referenceEdition(), date: '../../etc' };
    await expect(
      writeEditionFiles({ fs: memoryFileSystem(), outDir: '/out', edition, editions: [] }),
    ).rejects.toBeInstanceOf(PublishError);
  });
});
