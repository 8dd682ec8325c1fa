// The live site changes all at once. A publish (or a correction) copies the live folder to a staging folder beside
// it, writes the new pages there, then swaps the two with renames; interrupted anywhere, readers see the old site or
// the new one, never a page of each. A build never comes here: its draft goes to its own folder (docs/publishing.md).
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PublishError } from './publish-errors.js';

/** The folders a publish uses beside the live one: its staging copy and, for the moment of the swap, the old site. */
export function swapFolders(siteDir: string): { staging: string; previous: string } {
  const beside = (what: string) => join(dirname(siteDir), `.${basename(siteDir)}.${what}`);
  return { staging: beside('publishing'), previous: beside('previous') };
}

/**
 * Runs `write` on a staging copy of the live site, then puts the copy live. The rename of the live folder aside and
 * the rename of the copy into its place are two steps: stopped between them (SIGKILL), the next publish puts the old
 * site back first, and rewrites the new one.
 */
export async function swapSite<T>(siteDir: string, write: (stagingDir: string) => Promise<T>): Promise<T> {
  const { staging, previous } = swapFolders(siteDir);
  await recoverSite(siteDir);
  try {
    // Timestamps kept: an unchanged file stays the same file to a cache that checks mtime and size.
    if (await exists(siteDir)) await cp(siteDir, staging, { recursive: true, preserveTimestamps: true });
    else await mkdir(staging, { recursive: true });
  } catch (error) {
    throw new PublishError(
      `Could not stage the site beside ${siteDir} (its parent folder must be writable): ${String(error)}`,
      { cause: error },
    );
  }
  let result: T;
  try {
    result = await write(staging);
  } catch (error) {
    // The live site was not touched; the half-written copy goes.
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (await exists(siteDir)) await rename(siteDir, previous);
  await rename(staging, siteDir);
  await rm(previous, { recursive: true, force: true });
  return result;
}

/** What an interrupted publish left: the old site back in place when it was stopped between the two renames. */
export async function recoverSite(siteDir: string): Promise<void> {
  const { staging, previous } = swapFolders(siteDir);
  if (!(await exists(siteDir)) && (await exists(previous))) await rename(previous, siteDir);
  await rm(staging, { recursive: true, force: true });
  await rm(previous, { recursive: true, force: true });
}

/** Only a publish writes these, so a folder with them is a published site, which a build must not write into. */
export async function isPublishedSite(dir: string): Promise<boolean> {
  return (await exists(join(dir, 'robots.txt'))) && (await exists(join(dir, 'sitemap.xml')));
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
