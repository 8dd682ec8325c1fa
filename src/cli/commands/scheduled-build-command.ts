// `digest scheduled-build` (hidden): the weekly job's build, in the process `digest serve` starts for it, so reading
// pages, writing and rendering never run on the server's event loop. It reaches the server's database like any other
// command (the shared PGlite socket, or DATABASE_URL), and prints its outcome as the last line of its output.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommonOptions, parseWeek, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface ScheduledBuildOptions extends CommonOptions {
  week: string;
  out: string;
}

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'scheduled-build')
    .requiredOption('--week <date>', 'edition date YYYY-MM-DD', parseWeek)
    .requiredOption('--out <dir>', 'the site folder digest serve serves');
  withStoreOptions(command).action(async (options: ScheduledBuildOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const outcome = await digest.scheduledEdition({ week: options.week, siteDir: options.out });
        context.stdout.write(`${JSON.stringify(outcome)}\n`);
      },
    });
  });
}
