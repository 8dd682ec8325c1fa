// Input rules every entry point shares, checked before any work. Light: no store, no network, no heavy modules.
import { constants, existsSync, statfsSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { editionWindow, isIsoDay, latestMonday } from '../core/dates.js';
import { ConfigError } from '../core/errors.js';
import { safeUrl } from '../core/urls.js';

/** `--week`: any YYYY-MM-DD (the window is the 7 days ending on it); default the latest Monday. */
export function resolveWeek(week: string | undefined, now: Date): string {
  if (week === undefined) return latestMonday(now);
  if (!isIsoDay(week)) {
    throw new ConfigError(`--week must be a date like 2026-05-04 (got "${week}").`, [
      { path: '--week', message: 'not a YYYY-MM-DD date' },
    ]);
  }
  // A week none of whose days has come has no items anywhere: refused here, before any request is made.
  const today = now.toISOString().slice(0, 10);
  const { start } = editionWindow(week);
  if (start > today) {
    const message = `that week has not begun (its items are from ${start} to ${week}; today is ${today})`;
    throw new ConfigError(`--week ${week}: ${message}.`, [{ path: '--week', message }]);
  }
  return week;
}

/** A command that only reads: its data folder must exist (opening one that does not would make an empty one). */
export function checkDataDirExists(options: { cwd: string; env: NodeJS.ProcessEnv; dataDir?: string }): void {
  if (options.env.DATABASE_URL) return;
  const dataDir = resolveDataDir(options);
  if (existsSync(dataDir)) return;
  const message = `no data folder there: nothing is stored (check the path, or fill it with ./digest demo or ./digest build)`;
  throw new ConfigError(`--data-dir ${dataDir}: ${message}.`, [{ path: '--data-dir', message }]);
}

// Kernel file systems: writing a site or a database there is never what anyone meant (and /proc can spin).
const SPECIAL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x01021994, 'tmpfs (/dev)'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x73636673, 'securityfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x6165676c, 'pstore'],
  [0xcafe4a11, 'bpf'],
]);
const SPECIAL_PREFIXES = ['/proc', '/sys', '/dev'];

/**
 * Checks that `path` is (or can be created as) a writable folder on an ordinary file system, before any work:
 * walks up to the nearest existing ancestor, which must be a writable folder.
 */
export async function checkWritableFolder(path: string, flag: string, cwd: string): Promise<string> {
  const absolute = resolve(cwd, path);
  const bad = (message: string) =>
    new ConfigError(`${flag} ${absolute}: ${message}`, [{ path: flag, message }]);
  for (const prefix of SPECIAL_PREFIXES) {
    if (absolute === prefix || absolute.startsWith(`${prefix}/`)) {
      throw bad(`is on a kernel file system (${prefix}); choose an ordinary folder`);
    }
  }
  let existing = absolute;
  for (;;) {
    const info = await stat(existing).catch(() => null);
    if (info) {
      if (!info.isDirectory()) {
        throw bad(
          existing === absolute ? 'is not a folder' : `cannot be created: ${existing} is not a folder`,
        );
      }
      break;
    }
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    const type = statfsSync(existing).type;
    const special = SPECIAL_FILE_SYSTEMS.get(type);
    if (special && existing !== '/') throw bad(`is on a ${special} file system; choose an ordinary folder`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
  }
  try {
    await access(existing, constants.W_OK | constants.X_OK);
  } catch {
    throw bad(
      existing === absolute
        ? 'is not writable by this user'
        : `cannot be created: ${existing} is not writable by this user`,
    );
  }
  return absolute;
}

/** The data folder every command uses unless told otherwise: the demo fills it, the commands after it read it. */
export const DEFAULT_DATA_DIR = 'data';

/** `--data-dir`, else DIGEST_DATA_DIR, else ./data (relative to the working folder). */
export function resolveDataDir(options: { cwd: string; env: NodeJS.ProcessEnv; dataDir?: string }): string {
  return resolve(options.cwd, options.dataDir ?? options.env.DIGEST_DATA_DIR ?? DEFAULT_DATA_DIR);
}

/** The site's absolute address from --base-url or publish.baseUrl: feeds, sitemap and canonical links need it. */
export function resolveBaseUrl(flag: string | undefined, configured: string | undefined): string {
  const value = flag ?? configured;
  if (!value) {
    throw new ConfigError(
      'Publishing needs the address the site will be served from: pass --base-url https://… or set publish.baseUrl in the config.',
      [{ path: 'publish.baseUrl', message: 'required to publish' }],
    );
  }
  if (!safeUrl(value)) {
    throw new ConfigError(`--base-url must be an absolute http(s) URL (got "${value}").`, [
      { path: '--base-url', message: 'not an http(s) URL' },
    ]);
  }
  return value;
}
