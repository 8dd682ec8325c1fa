// `digest backup`: the whole store, read in one snapshot while everything else goes on, into one file.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PROGRAM_VERSION } from '../core/version.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, writeBackupFile } from './backup-file.js';
import type { BackupDeps } from './ports.js';

/** Tables left out by `--no-cache`: model answers and fetched pages, all of which a build fetches again. */
export const CACHE_TABLES = ['cache'];

export interface BackupInput {
  /** Where to write it (default: digest-backup-<time>.ndjson.gz in the current folder). */
  file?: string | undefined;
  /** Keep the cache table (default true). */
  cache?: boolean;
}

export interface BackupOutcome {
  file: string;
  bytes: number;
  schema: string;
  counts: Record<string, number>;
  /** Wall time of the whole backup, in ms. */
  ms: number;
  /** How long the snapshot held the database: on PGlite, the longest a write waits for the backup at once, ms. */
  heldMs: number;
}

export async function takeBackup(deps: BackupDeps, input: BackupInput): Promise<BackupOutcome> {
  const started = deps.clock.now();
  const file = resolve(input.file ?? backupFileName(started));
  const cache = input.cache !== false;
  // The cache need not agree with the readers' rows: read after the snapshot, it never makes a writer wait.
  const options = cache ? { unheld: CACHE_TABLES } : { skip: CACHE_TABLES };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const { schema, counts, bytes, heldMs } = await deps.store.backup.read(options, async (snapshot) => ({
    schema: snapshot.schema,
    counts: snapshot.counts,
    heldMs: snapshot.heldMs,
    bytes: await writeBackupFile({
      path: file,
      header: {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        schema: snapshot.schema,
        program: PROGRAM_VERSION,
        createdAt: started.toISOString(),
        tables: snapshot.tables,
      },
      batches: snapshot.batches(),
      counts: snapshot.counts,
    }),
  }));
  deps.log.info(`backup: ${file} (${bytes} bytes, schema ${schema})`);
  return { file, bytes, schema, counts, heldMs, ms: deps.clock.now().getTime() - started.getTime() };
}

/** `digest-backup-20260504T070000Z.ndjson.gz`: sorts by time, and the schedule prunes only names of this shape. */
export function backupFileName(at: Date): string {
  return `${BACKUP_PREFIX}${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}${BACKUP_SUFFIX}`;
}

export const BACKUP_PREFIX = 'digest-backup-';
export const BACKUP_SUFFIX = '.ndjson.gz';
