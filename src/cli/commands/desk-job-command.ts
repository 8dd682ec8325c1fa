// `digest desk-job` (hidden): one desk action that builds or regenerates (rebuild the draft, add by URL, regenerate),
// in the process `digest serve` starts for it, so reading pages and writing never run on the server's event loop.
// It reaches the server's database like any other command and prints the action's outcome as its last line.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommonOptions, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface DeskJobOptions extends CommonOptions {
  job: string;
}

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'desk-job').requiredOption(
    '--job <json>',
    'the action: {kind, context: {editor, week, draftDir}, form}',
  );
  withStoreOptions(command).action(async (options: DeskJobOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const outcome = await digest.deskJob(options.job);
        context.stdout.write(`${JSON.stringify(outcome)}\n`);
      },
    });
  });
}
