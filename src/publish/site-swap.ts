// The live site changes all at once. A publish (or a correction) writes the new site into a staging folder beside
// the live one, carries over the live files of its own it did not write again (item images, earlier revisions'
// pages, other weeks' mail files; nothing else — a stray file dies with its generation), moves it among
// the site's generations (`.out.sites/<n>/`), then flips the live path — a symbolic link — to it with one rename of
// a new link over the old one. At every instant the live path leads to a whole site, the old or the new; interrupted
// anywhere, the next publish finds one of them live. A build never comes here: its draft goes to its own folder
// (docs/publishing.md).
import { copyFile, link, lstat, mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
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
  await refuseForeignLink(siteDir);
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
    const path = relative(siteDir, from);
    if (!isPublishedFile(path)) continue;
    const to = join(staging, path);
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

/**
 * The live files a publish may not write again but made itself: item images (a later fetch may fail), earlier
 * revisions' pages, and other weeks' mail files (each publish writes only its own week's), in any language's section.
 */
const PUBLISHED_FILE =
  /^(?:img\/[^/]+|(?:[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?\/)?\d{4}-\d{2}-\d{2}(?:-r\d+\/[^/]+|\/(?:email\.html|email\.txt|edition\.eml)))$/;

export function isPublishedFile(path: string): boolean {
  return PUBLISHED_FILE.test(path.split(sep).join('/'));
}

/**
 * The live path is a link a publish made (into `.<name>.sites/`) or a real folder. A link of the operator's own to
 * another folder is theirs: retargeting it would cut the site off from that folder and leave its files behind.
 */
async function refuseForeignLink(siteDir: string): Promise<void> {
  const live = siteDir.replace(/(?<=.)[\\/]+$/, '');
  const target = await readlink(live).catch(() => null);
  if (target === null) return;
  const { generations } = swapFolders(live);
  const resolved = resolve(dirname(live), target);
  if (resolved.startsWith(generations + sep)) return;
  const message = `is a link to ${target}, not a site digest publish made; publish into that folder itself (--out ${resolved}) or remove the link`;
  throw new ConfigError(`--out ${siteDir}: ${message}.`, [{ path: '--out', message }]);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
