// A data folder is private to its owner: 0700 folders, 0600 files. PGlite's file system layer creates its files
// 0666 whatever the umask, so new folders are tightened after they are prepared, open ones when they close, and
// an existing folder (one made by release 0.1 was world-writable) when it opens, saying so.
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Removes every group and other permission under `dir` (itself included); returns how many were readable by others. */
export async function tightenPermissions(dir: string): Promise<number> {
  let readable = 0;
  const visit = async (path: string): Promise<void> => {
    const stats = await lstat(path).catch(() => null);
    if (!stats || stats.isSymbolicLink()) return;
    const mode = stats.mode & 0o777;
    if (mode & 0o004) readable += 1;
    const wanted = stats.isDirectory() ? PRIVATE_DIR : mode & PRIVATE_FILE;
    if (mode !== wanted) await chmod(path, wanted).catch(() => {});
    if (stats.isDirectory()) {
      for (const entry of await readdir(path).catch(() => [])) await visit(join(path, entry));
    }
  };
  await visit(dir);
  return readable;
}
