// The live site changes all at once. A publish (or a correction) writes the new site into a staging folder beside
// the live one, carries over the live files it did not write (item images, other weeks' mail files), moves it among
// the site's generations (`.out.sites/<n>/`), then flips the live path — a symbolic link — to it with one rename of
// a new link over the old one. At every instant the live path leads to a whole site, the old or the new; interrupted
// anywhere, the next publish finds one of them live. A build never comes here: its draft goes to its own folder
// (docs/publishing.md).
import { copyFile, link, lstat, mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { ConfigError, PublishError } from '../core/errors.js';

/**
 * The paths a publish uses beside the live one: its staging copy, the folder of the site's generations, the new link
 * made before the flip, and `previous` (where an earlier version of this module put the old site during its swap).
 */
export function swapFolders(siteDir: string): {
  staging: string;
  previous: string;
  generations: string;
  nextLink: string;
} {
  const live = siteDir.replace(/(?<=.)[\\/]+$/, '');
  const beside = (what: string) => join(dirname(live), `.${basename(live)}.${what}`);
  return {
    staging: beside('publishing'),
    previous: beside('previous'),
    generations: beside('sites'),
    nextLink: beside('next'),
  };
}

/**
 * Runs `write` on an empty staging folder, adds the live files it did not write, then puts the folder live (see
 * flipTo). Readers of the live path see the old site until the flip and the new one after it.
 */
export function swapSite<T>(siteDir: string, write: (stagingDir: string) => Promise<T>): Promise<T> {
  // One swap of a folder at a time in this process: a desk publish and the copy of another instance's publish
  // (compose/site-sync.ts) share the staging folder's name.
  const key = resolve(siteDir);
  const before = swapsInFlight.get(key) ?? Promise.resolve();
  const swap = before.then(() => swapNow(siteDir, write));
  const settled = swap.then(
    () => undefined,
    () => undefined,
  );
  swapsInFlight.set(key, settled);
  void settled.then(() => {
    if (swapsInFlight.get(key) === settled) swapsInFlight.delete(key);
  });
  return swap;
}

const swapsInFlight = new Map<string, Promise<void>>();

async function swapNow<T>(siteDir: string, write: (stagingDir: string) => Promise<T>): Promise<T> {
  const { staging } = swapFolders(siteDir);
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
  await flipTo(siteDir, staging);
  return result;
}

/**
 * The staging folder becomes the next generation, and the live path a link to it: a new link renamed over the old
 * one, which POSIX makes atomic, so no reader ever finds the path missing. A live path that is still a real folder
 * (a site published before generations) becomes a generation itself, once: that first flip is the only one with an
 * instant between two renames. Afterwards the generations but the new and the one before it are removed (a reader
 * that opened a file of the one before keeps reading it).
 */
async function flipTo(siteDir: string, staging: string): Promise<void> {
  const { generations, nextLink } = swapFolders(siteDir);
  await mkdir(generations, { recursive: true });
  let before = await liveGeneration(siteDir);
  const name = await nextGeneration(generations);
  await rename(staging, join(generations, name));
  await rm(nextLink, { force: true });
  // Relative, so the folder (a Docker volume) can be mounted anywhere.
  await symlink(join(basename(generations), name), nextLink, 'dir');
  if ((await lstat(siteDir).catch(() => null))?.isDirectory()) {
    before = await nextGeneration(generations);
    await rename(siteDir, join(generations, before));
  }
  await rename(nextLink, siteDir);
  for (const old of await readdir(generations)) {
    if (old !== name && old !== before) await rm(join(generations, old), { recursive: true, force: true });
  }
}

/** The generation the live link leads to, or null (no site yet, or a real folder). */
async function liveGeneration(siteDir: string): Promise<string | null> {
  const target = await readlink(siteDir).catch(() => null);
  return target === null ? null : basename(target);
}

/** One more than the highest generation number there (names are numbers, zero-padded so they sort). */
async function nextGeneration(generations: string): Promise<string> {
  const numbers = (await readdir(generations)).map(Number).filter(Number.isInteger);
  return String(Math.max(0, ...numbers) + 1).padStart(6, '0');
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

/**
 * What an interrupted publish left: stopped in the one flip that had to move a real folder aside, the live path is
 * missing and the new link waits beside it (the new site whole), so it goes live; stopped in an earlier version's
 * swap, the old site waits in `previous` and goes back. Staging copies and stray links go.
 */
export async function recoverSite(siteDir: string): Promise<void> {
  const { staging, previous, nextLink } = swapFolders(siteDir);
  if (!(await lstat(siteDir).catch(() => null))) {
    if (await exists(nextLink)) await rename(nextLink, siteDir);
    else if (await exists(previous)) await rename(previous, siteDir);
  }
  await rm(staging, { recursive: true, force: true });
  await rm(previous, { recursive: true, force: true });
  await rm(nextLink, { force: true });
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
