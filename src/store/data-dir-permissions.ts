// A data folder is private to its owner: 0700 folders, 0600 files. PGlite's file system layer creates its files
// 0666 whatever the umask, so new folders are tightened after they are prepared, open ones when they close, and
// an existing folder (one made by release 0.1 was world-writable) when it opens, saying so.
// The walk is synchronous: about 1,100 entries cost a few milliseconds as plain system calls, several times that
// as one promise each (it ran twice on every command that opens the store).
import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Removes every group and other permission under `dir` (itself included); returns how many were readable by others. */
export async function tightenPermissions(dir: string): Promise<number> {
  let readable = 0;
  const visit = (path: string): void => {
    const stats = lstatOrNull(path);
    if (!stats || stats.isSymbolicLink()) return;
    const mode = stats.mode & 0o777;
    if (mode & 0o004) readable += 1;
    const wanted = stats.isDirectory() ? PRIVATE_DIR : mode & PRIVATE_FILE;
    if (mode !== wanted) tryChmod(path, wanted);
    if (stats.isDirectory()) for (const entry of readdirOrEmpty(path)) visit(join(path, entry));
  };
  visit(dir);
  return readable;
}

/**
 * What PGlite leaves readable when it starts: PostgreSQL rebuilds its relation-cache init files (`pg_internal.init`
 * in global/ and in each database's folder) on every start through the C library, 0666 less the umask; every
 * other file it makes is 0600. So after a start these are tightened — a few system calls, not a walk of ~1,100
 * entries on every command — and the walk when the store closes catches anything else.
 */
export function tightenStartFiles(dir: string): void {
  const databases = readdirOrEmpty(join(dir, 'base')).map((name) => join(dir, 'base', name));
  for (const folder of [join(dir, 'global'), ...databases]) {
    const file = join(folder, 'pg_internal.init');
    const stats = lstatOrNull(file);
    if (stats?.isFile() && (stats.mode & 0o777) !== (stats.mode & 0o777 & PRIVATE_FILE))
      tryChmod(file, stats.mode & PRIVATE_FILE);
  }
}

/**
 * Whether `dir` is a folder only its owner, this user, can enter (0700): its files cannot be read by others
 * whatever their own modes, so opening it needs no walk first (one lstat instead of ~1,100).
 */
export function isPrivateFolder(dir: string): boolean {
  const stats = lstatOrNull(dir);
  if (!stats?.isDirectory()) return false;
  const uid = process.getuid?.();
  return (stats.mode & 0o777) === PRIVATE_DIR && (uid === undefined || stats.uid === uid);
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function readdirOrEmpty(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function tryChmod(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // A file removed mid-walk, or one we do not own: nothing to tighten.
  }
}
