// The backup file: gzip'd NDJSON, portable between PGlite and PostgreSQL. Line 1 is the header (format, the
// schema's migration level, the program, the tables and their columns); then one line per batch of rows
// `{"table": …, "rows": [{column: value}]}`; the last line the trailer: the count per table and the SHA-256 of every
// byte before it (uncompressed), so a cut, bit-flipped or edited file is refused before anything is restored.
// Written beside its final name, synced, then renamed: a crash leaves the old file or the new one, never half.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import type { RowBatch, TableShape } from '../store/backup.js';
import { jsonValue } from '../store/backup.js';

export const BACKUP_FORMAT = 'digest-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The last migration of the schema the rows were read from. */
  schema: string;
  program: string;
  createdAt: string;
  tables: TableShape[];
}

export interface BackupTrailer {
  end: true;
  counts: Record<string, number>;
  sha256: string;
}

/** Writes the file atomically (mode 0600: it holds readers' addresses); its size in bytes. */
export async function writeBackupFile(input: {
  path: string;
  header: BackupHeader;
  batches: AsyncIterable<RowBatch>;
  counts: Record<string, number>;
}): Promise<number> {
  const partial = `${input.path}.${randomUUID()}.partial`;
  try {
    await pipeline(
      Readable.from(backupLines(input)),
      createGzip(),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const { size } = await stat(partial);
    await rename(partial, input.path);
    await syncFolder(dirname(input.path));
    return size;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

async function* backupLines(input: {
  header: BackupHeader;
  batches: AsyncIterable<RowBatch>;
  counts: Record<string, number>;
}): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const line = (value: unknown) => {
    const text = `${JSON.stringify(value, jsonValue)}\n`;
    hash.update(text);
    return text;
  };
  yield line(input.header);
  for await (const batch of input.batches) yield line(batch);
  const trailer: BackupTrailer = { end: true, counts: input.counts, sha256: hash.digest('hex') };
  yield `${JSON.stringify(trailer)}\n`;
}

/** The folder's entry of the renamed file reaches the disk too. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  await handle
    ?.sync()
    .catch(() => {})
    .finally(() => handle.close());
}

/** The file's lines as text with their newline, in order (the gzip is undone on the way; errors reach the reader). */
export async function* backupFileLines(path: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(path), gunzip).catch((error: unknown) =>
    gunzip.destroy(error as Error),
  );
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of gunzip) {
    rest += decoder.write(chunk as Buffer);
    let end = rest.indexOf('\n');
    while (end !== -1) {
      yield rest.slice(0, end + 1);
      rest = rest.slice(end + 1);
      end = rest.indexOf('\n');
    }
  }
  await reading;
  rest += decoder.end();
  if (rest) yield rest;
}
