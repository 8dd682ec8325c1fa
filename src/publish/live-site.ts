// Where a draft may not go: the published site, any folder inside it, or the site's generations beside it. Only a
// publish (or a correction) writes there, through publish/site-swap.ts; a build's page and `digest email`'s files go
// to their own folder (docs/publishing.md).
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';

/** Only a publish writes these, so a folder with them is a published site, which a build must not write into. */
export async function isPublishedSite(dir: string): Promise<boolean> {
  return (await exists(join(dir, 'robots.txt'))) && (await exists(join(dir, 'sitemap.xml')));
}

/** A publish's own folders beside the live path: its generations, its staging copy and its links. */
const SWAP_FOLDER = /^\..+\.(?:sites|publishing|previous|next)$/;

/**
 * The published site `dir` is in, or null: the folder itself, any folder inside it, or inside the site's generations,
 * as the file system resolves it (a link, `..`, a path not made yet are followed to where the files would land).
 */
export async function liveSiteHolding(dir: string): Promise<string | null> {
  let existing = resolve(dir);
  let real: string | null = null;
  while (real === null) {
    real = await realpath(existing).catch(() => null);
    if (real === null) {
      if (dirname(existing) === existing) return null;
      existing = dirname(existing);
    }
  }
  for (let folder = real; ; folder = dirname(folder)) {
    if (SWAP_FOLDER.test(basename(folder)) || (await isPublishedSite(folder))) return folder;
    if (dirname(folder) === folder) return null;
  }
}

/** A draft (a build's page, `digest email`'s files) never goes into the live site, which only a publish changes. */
export async function refusePublishedSite(outDir: string, elsewhere: string): Promise<void> {
  const live = await liveSiteHolding(outDir);
  if (!live) return;
  const message = `is in the published site (${live}), which only digest publish (or digest correct) changes; ${elsewhere} (by default drafts/<week>/)`;
  throw new ConfigError(`--out ${outDir}: ${message}.`, [{ path: '--out', message }]);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
