// The site swap on the real disk: a publish that fails while writing leaves the live folder as it was and no copy
// behind; one stopped between its two renames is put back by the next; a finished one replaces the site at once.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPublishedSite, swapFolders, swapSite } from '../../src/publish/site-swap.js';
import { filesOf } from '../support/site-tree.js';

describe('swapSite', () => {
  let root: string;
  let site: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'digest-swap-'));
    site = join(root, 'out');
    await mkdir(join(site, '2026-05-04'), { recursive: true });
    await writeFile(join(site, 'index.html'), 'old front page');
    await writeFile(join(site, '2026-05-04', 'index.html'), 'old edition page');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes into a folder beside the live one and swaps it in; live files it does not write are kept', async () => {
    const seen = await swapSite(site, async (staging) => {
      expect(staging).toBe(swapFolders(site).staging);
      await writeFile(join(staging, 'index.html'), 'new front page');
      // Until the swap, readers have the old site.
      expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('old front page');
      return 'done';
    });
    expect(seen).toBe('done');
    expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('new front page');
    expect(await readFile(join(site, '2026-05-04', 'index.html'), 'utf8')).toBe('old edition page');
    expect(existsSync(swapFolders(site).staging)).toBe(false);
    expect(existsSync(swapFolders(site).previous)).toBe(false);
  });

  it('a failure while writing leaves the live site byte for byte and no copy behind', async () => {
    const before = await filesOf(site);
    await expect(
      swapSite(site, async (staging) => {
        await writeFile(join(staging, 'index.html'), 'half of a new site');
        throw new Error('ENOSPC: no space left on device');
      }),
    ).rejects.toThrow(/ENOSPC/);
    expect(await filesOf(site)).toEqual(before);
    expect(existsSync(swapFolders(site).staging)).toBe(false);
  });

  it('stopped between the two renames, the next publish puts the old site back first, then completes', async () => {
    const { staging, previous } = swapFolders(site);
    const before = await filesOf(site);
    // What a SIGKILL after `out` → `.out.previous` and before `.out.publishing` → `out` leaves on disk.
    await mkdir(staging);
    await writeFile(join(staging, 'index.html'), 'a copy that never went live');
    await rename(site, previous);
    let restored: Map<string, string> | null = null;
    await swapSite(site, async (copy) => {
      restored = await filesOf(site);
      await writeFile(join(copy, 'index.html'), 'new front page');
    });
    expect(restored).toEqual(before);
    expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('new front page');
    expect(existsSync(previous)).toBe(false);
  });

  it('a first publish, with no site yet, makes the folder', async () => {
    await rm(site, { recursive: true });
    await swapSite(site, (staging) => writeFile(join(staging, 'robots.txt'), 'User-agent: *\n'));
    expect(await readFile(join(site, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('a folder is a published site when it has what only a publish writes', async () => {
    expect(await isPublishedSite(site)).toBe(false);
    await writeFile(join(site, 'robots.txt'), '');
    expect(await isPublishedSite(site)).toBe(false);
    await writeFile(join(site, 'sitemap.xml'), '');
    expect(await isPublishedSite(site)).toBe(true);
  });
});
