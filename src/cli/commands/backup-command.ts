// `digest backup [FILE]` and `digest restore FILE`: the store to one checked file and back. While `digest serve`
// holds the data folder, both reach its database through the shared socket like every other command.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommonOptions, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface BackupOptions extends CommonOptions {
  cache: boolean;
}

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ') || 'no rows';

export function register(program: Command, context: CliContext): void {
  const backup = declareCommand(program, 'backup')
    .argument('[file]', 'where to write it (default: digest-backup-<time>.ndjson.gz here)')
    .option(
      '--no-cache',
      'leave out the cache table (model answers and fetched pages, fetched again by a build)',
    );
  withStoreOptions(backup).action(async (file: string | undefined, options: BackupOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const { resolve } = await import('node:path');
        const outcome = await digest.backup({
          ...(file ? { file: resolve(context.cwd, file) } : {}),
          cache: options.cache,
        });
        context.stdout.write(
          `Backed up ${digest.storeLocation} to ${outcome.file} (${outcome.bytes} bytes, schema ${outcome.schema}, ${outcome.ms} ms; the snapshot held the database ${outcome.heldMs} ms): ${counted(outcome.counts)}.\n`,
        );
      },
    });
  });

  const restore = declareCommand(program, 'restore').argument('<file>', 'a file written by digest backup');
  withStoreOptions(restore).action(async (file: string, options: CommonOptions) => {
    const { resolve } = await import('node:path');
    const { checkBackup } = await import('../../compose/index.js');
    // The whole file is checked before the target store is opened (or made).
    const checked = await checkBackup(resolve(context.cwd, file));
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const outcome = await digest.restore(checked);
        const migrated = outcome.migratedFrom ? ` (migrated from ${outcome.migratedFrom})` : '';
        context.stdout.write(
          `Restored ${checked.path} into ${digest.storeLocation}, schema ${outcome.schema}${migrated}: ${counted(outcome.counts)}.\n`,
        );
      },
    });
  });
}
