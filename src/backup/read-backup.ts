// Reading a backup file back: first the whole file is checked (its checksum, its header, its trailer), and only a
// file that passes is read again for its rows. Every problem is a ConfigError naming the file: bad input, exit 2.
import { createHash } from 'node:crypto';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { RowBatch } from '../store/backup.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupHeader,
  type BackupTrailer,
  backupFileLines,
} from './backup-file.js';

export interface CheckedBackup {
  path: string;
  header: BackupHeader;
  trailer: BackupTrailer;
}

function refused(path: string, why: string, cause?: unknown): ConfigError {
  return new ConfigError(`The backup ${path} cannot be restored: ${why}.`, [{ path: 'FILE', message: why }], {
    cause,
  });
}

/** The file checked whole: gzip, every line JSON, the checksum, the header's format and the trailer's counts. */
export async function checkBackupFile(path: string): Promise<CheckedBackup> {
  const hash = createHash('sha256');
  let header: BackupHeader | null = null;
  let last: string | null = null;
  try {
    for await (const line of backupFileLines(path)) {
      if (last !== null) hash.update(last);
      header ??= parseHeader(path, line);
      last = line;
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw refused(path, `it could not be read (${errorMessage(error)})`, error);
  }
  const trailer = last === null ? null : parseLine<BackupTrailer>(last);
  if (!header || !trailer?.end || typeof trailer.sha256 !== 'string')
    throw refused(path, 'it ends early (no trailer line): the file is cut short');
  if (trailer.sha256 !== hash.digest('hex'))
    throw refused(path, 'its checksum does not match its contents: the file was changed or damaged');
  return { path, header, trailer };
}

function parseHeader(path: string, line: string): BackupHeader {
  const header = parseLine<BackupHeader>(line);
  if (header?.format !== BACKUP_FORMAT) throw refused(path, 'it is not a digest backup');
  if (header.formatVersion !== BACKUP_FORMAT_VERSION)
    throw refused(
      path,
      `its format ${header.formatVersion} is not one this program reads (${BACKUP_FORMAT_VERSION})`,
    );
  return header;
}

function parseLine<T>(line: string): T | null {
  try {
    return JSON.parse(line) as T;
  } catch {
    return null;
  }
}

/** The row batches of a checked file, in its order. */
export async function* backupBatches(backup: CheckedBackup): AsyncGenerator<RowBatch> {
  let first = true;
  for await (const line of backupFileLines(backup.path)) {
    if (first) {
      first = false;
      continue;
    }
    const batch = JSON.parse(line) as RowBatch | BackupTrailer;
    if ('end' in batch) return;
    yield batch;
  }
}
