// The live site changes all at once. A publish (or a correction) writes the new site into a staging folder beside
// the live one, carries over the live files it did not write (item images, other weeks' mail files), then swaps the
// two with renames; interrupted anywhere, readers see the old site or the new one, never a page of each. A build
// never comes here: its draft goes to its own folder (docs/publishing.md).
import { copyFile, link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { PublishError } from './publish-errors.js';

/** The folders a publish uses beside the live one: its staging copy and, for the moment of the swap, the old site. */
export function swapFolders(siteDir: string): { staging: string; previous: string } {
  const beside = (what: string) => join(dirname(siteDir), `.${basename(siteDir)}.${what}`);
  return { staging: beside('publishing'), previous: beside('previous') };
}

/**
 * Runs `write` on an empty staging folder, adds the live files it did not write, then puts the folder live. The
 * rename of the live folder aside and the rename of the new one into its place are two steps: stopped between them
 * (SIGKILL), the next publish puts the old site back first, and rewrites the new one.
 */
export async function swapSite<T>(siteDir: string, write: (stagingDir: string) => Promise<T>): Promise<T> {
  const { staging, previous } = swapFolders(siteDir);
  await recoverSite(siteDir);
  try {
    await mkdir(staging, { recursive: true });
  } catch (error) {
    throw new PublishError(
      `Could not stage the site beside ${siteDir} (its parent folder must be writable): ${String(error)}`,
      { cause: error },
    );
  }
  let result: T;
  try {
    result = await write(staging);
    if (await exists(siteDir)) await carryOver(siteDir, staging);
  } catch (error) {
    // The live site was not touched; the half-written folder goes.
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (await exists(siteDir)) await rename(siteDir, previous);
  await rename(staging, siteDir);
  await rm(previous, { recursive: true, force: true });
  return result;
}

/**
 * Every live file the publish did not write, into the staging folder: a hard link (the same bytes and time, no copy;
 * nothing writes into a live site in place), or a copy where the file system has no links.
 */
async function carryOver(siteDir: string, staging: string): Promise<void> {
  for (const entry of await readdir(siteDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(staging, relative(siteDir, from));
    if (await exists(to)) continue;
    await mkdir(dirname(to), { recursive: true });
    await link(from, to).catch(() => copyFile(from, to));
  }
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

/** A draft (a build's page, `digest email`'s files) never goes into the live site, which only a publish changes. */
export async function refusePublishedSite(outDir: string, elsewhere: string): Promise<void> {
  if (!(await isPublishedSite(outDir))) return;
  const message = `holds the published site, which only digest publish (or digest correct) changes; ${elsewhere} (by default drafts/<week>/)`;
  throw new ConfigError(`--out ${outDir}: ${message}.`, [{ path: '--out', message }]);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
