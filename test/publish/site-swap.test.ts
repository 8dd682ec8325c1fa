// The site swap on the real disk: a publish that fails while writing leaves the live folder as it was and no copy
// behind; a finished one flips the live link to a new generation at once (a real folder is converted on the first),
// keeping one generation before it; an interrupted one is completed or put back by the next.
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPublishedSite } from '../../src/publish/live-site.js';
import { swapFolders, swapSite } from '../../src/publish/site-swap.js';
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

  it("writes into a folder beside the live one and swaps it in; only the live files of publish's own it did not write are kept", async () => {
    const own = [
      'img/ab12.png',
      '2026-04-27/edition.eml',
      '2026-04-27/email.html',
      '2026-05-04-r1/index.html',
    ];
    const stray = ['leak/index.html', '2026-04-20/index.html', '2026-05-04/notes.txt', 'img/x/y.png'];
    for (const path of [...own, ...stray]) {
      await mkdir(join(site, path, '..'), { recursive: true });
      await writeFile(join(site, path), `live ${path}`);
    }
    const seen = await swapSite(site, async (staging) => {
      expect(staging).toBe(swapFolders(site).staging);
      await writeFile(join(staging, 'index.html'), 'new front page');
      // Until the swap, readers have the old site.
      expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('old front page');
      return 'done';
    });
    expect(seen).toBe('done');
    expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('new front page');
    for (const path of own) expect(await readFile(join(site, path), 'utf8')).toBe(`live ${path}`);
    for (const path of [...stray, '2026-05-04/index.html'])
      expect(existsSync(join(site, path)), path).toBe(false);
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

  it('turns a real folder into a link to a generation, flips it on each publish and keeps one before', async () => {
    const { generations } = swapFolders(site);
    await writeFile(join(site, '2026-05-04', 'edition.eml'), 'a mail file');
    await swapSite(site, (staging) => writeFile(join(staging, 'index.html'), 'second front page'));
    expect((await lstat(site)).isSymbolicLink()).toBe(true);
    const second = await readlink(site);
    // Relative to the folder holding the site, so a volume can be mounted anywhere.
    expect(second).toMatch(/^\.out\.sites\/\d{6}$/);
    // The old real folder is the generation before.
    expect((await readdir(generations)).length).toBe(2);
    await swapSite(site, (staging) => writeFile(join(staging, 'index.html'), 'third front page'));
    await swapSite(site, (staging) => writeFile(join(staging, 'index.html'), 'fourth front page'));
    const fourth = await readlink(site);
    expect(fourth).not.toBe(second);
    expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('fourth front page');
    expect(await readFile(join(site, '2026-05-04', 'edition.eml'), 'utf8')).toBe('a mail file');
    const kept = (await readdir(generations)).sort();
    expect(kept).toHaveLength(2);
    expect(kept[1]).toBe(fourth.split('/').at(-1));
    expect(await readFile(join(generations, kept[0]!, 'index.html'), 'utf8')).toBe('third front page');
  });

  it('stopped while turning a real folder into a link, the next publish puts the new site live first', async () => {
    const { generations, nextLink } = swapFolders(site);
    // What a SIGKILL between `out` → `.out.sites/000002` and `.out.next` → `out` leaves on disk.
    await mkdir(join(generations, '000001'), { recursive: true });
    await writeFile(join(generations, '000001', 'index.html'), 'new front page');
    await symlink(join('.out.sites', '000001'), nextLink);
    await rename(site, join(generations, '000002'));
    let live: string | null = null;
    await swapSite(site, async (copy) => {
      live = await readFile(join(site, 'index.html'), 'utf8');
      await writeFile(join(copy, 'index.html'), 'newer front page');
    });
    expect(live).toBe('new front page');
    expect(await readFile(join(site, 'index.html'), 'utf8')).toBe('newer front page');
    expect(existsSync(nextLink)).toBe(false);
  });

  it("stopped between the two renames of an earlier version's swap, the next publish puts the old site back first, then completes", async () => {
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

  it("refuses an out that is the operator's own link to another folder, touching neither", async () => {
    const own = join(root, 'my-site');
    await rename(site, own);
    await symlink(own, site);
    const before = await filesOf(own);
    await expect(swapSite(site, async () => 'never')).rejects.toThrow(
      new RegExp(`is a link to ${own}, not a site digest publish made`),
    );
    expect(await readlink(site)).toBe(own);
    expect(await filesOf(own)).toEqual(before);
    expect(existsSync(swapFolders(site).generations)).toBe(false);
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
