// Unpacks the prepared empty database (a gzipped tar made by PGlite's dumpDataDir) into a folder, streaming: the
// 40 MB of files pass through in small chunks, so a new data folder costs no more memory than opening one. Only
// what PGlite writes is read: regular files and folders (ustar names), every path kept inside the target.
import { closeSync, createReadStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

const BLOCK = 512;

/** Writes the entries of the .tar.gz `file` under `target` (created), files 0600 and folders 0700. */
export async function extractTarGz(file: string, target: string): Promise<number> {
  mkdirSync(target, { recursive: true, mode: 0o700 });
  // Loaded here: only a new data folder is unpacked.
  const { createGunzip } = await import('node:zlib');
  let pending: Buffer = Buffer.alloc(0);
  let open: { fd: number; left: number; padding: number } | null = null;
  let files = 0;
  let ended = false;
  for await (const chunk of createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (!ended) {
      if (open) {
        const take = Math.min(open.left, pending.length);
        if (take > 0) writeSync(open.fd, pending, 0, take);
        open.left -= take;
        pending = pending.subarray(take);
        if (open.left > 0) break;
        if (pending.length < open.padding) break;
        pending = pending.subarray(open.padding);
        closeSync(open.fd);
        open = null;
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((byte) => byte === 0)) {
        ended = true;
        break;
      }
      const entry = readHeader(header, target);
      if (entry.type === 'dir') {
        mkdirSync(entry.path, { recursive: true, mode: 0o700 });
        continue;
      }
      mkdirSync(join(entry.path, '..'), { recursive: true, mode: 0o700 });
      open = { fd: openSync(entry.path, 'w', 0o600), left: entry.size, padding: paddingOf(entry.size) };
      files += 1;
    }
  }
  if (open) {
    closeSync(open.fd);
    throw new Error(`${file} ends inside a file: the archive is truncated`);
  }
  if (!ended) throw new Error(`${file} has no end-of-archive marker: the archive is truncated`);
  return files;
}

function paddingOf(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function readHeader(header: Buffer, target: string): { type: 'file' | 'dir'; path: string; size: number } {
  const text = (start: number, length: number) =>
    header.toString('utf8', start, start + length).replace(/\0[\s\S]*$/, '');
  const prefix = header.toString('utf8', 257, 262) === 'ustar' ? text(345, 155) : '';
  const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
  const size = Number.parseInt(text(124, 12).trim() || '0', 8);
  const flag = text(156, 1);
  const type = flag === '5' ? 'dir' : flag === '0' || flag === '' ? 'file' : null;
  const relative = normalize(name.replace(/^\/+/, ''));
  if (!type || !Number.isFinite(size) || relative.startsWith('..') || relative.includes(`${sep}..${sep}`))
    throw new Error(`unexpected tar entry "${name}" (type "${flag}")`);
  return { type, path: join(target, relative), size };
}
