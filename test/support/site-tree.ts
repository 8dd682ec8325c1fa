// A site folder as data: every file under it by relative path, its bytes in base64, to compare before and after.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export async function filesOf(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), (await readFile(path)).toString('base64'));
  }
  return files;
}
