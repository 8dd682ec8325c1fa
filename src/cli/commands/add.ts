import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import {
  type CommonOptions,
  commandWeek,
  weekOption,
  withCommandDigest,
  withStoreOptions,
} from '../options.js';
import { plainLine } from '../terminal.js';

interface AddOptions extends CommonOptions {
  week?: string;
  note?: string;
  offline?: boolean;
}

export function register(program: Command, context: CliContext): void {
  const command = program
    .command('add')
    .description("Add an item by hand (a URL or an arXiv id); it is pinned into that week's edition")
    .argument('<url-or-arxiv-id>', 'e.g. https://example.com/post or 2604.24819');
  weekOption(command)
    .option('--note <text>', "editor's note kept with the item")
    .option('--offline', 'make no network request: only an item already stored can be added');
  withStoreOptions(command).action(async (input: string, options: AddOptions) => {
    const week = commandWeek(options, context);
    const offline = options.offline ?? false;
    await withCommandDigest(
      options,
      context,
      async (digest) => {
        const stored = await digest.add({
          week,
          input,
          note: options.note ?? null,
          offline,
        });
        context.stdout.write(
          `Added "${plainLine(stored.title)}" (${plainLine(stored.key)}) to the edition of ${week}.\n`,
        );
      },
      { offline },
    );
  });
}
