import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type WeekOptions, weekCommand } from '../options.js';

interface DecideOptions extends WeekOptions {
  undo?: boolean;
}

/** `digest pin` / `digest skip`: an editor's decision about one item for one week. */
export function register(program: Command, context: CliContext): void {
  for (const decision of ['pin', 'skip'] as const) {
    weekCommand<DecideOptions>({
      name: decision,
      argument: ['<item>', 'item key (from "digest list"), arXiv id or URL'],
      flags: (own) => own.option('--undo', 'remove the decision'),
      run: async (digest, { week, options, args: [item = ''] }) => {
        const { key } = await digest.decide({ week, item, decision, undo: options.undo ?? false });
        context.stdout.write(
          `${options.undo ? `Removed ${decision} of` : decision === 'pin' ? 'Pinned' : 'Skipped'} ${key} for ${week}.\n`,
        );
      },
    })(program, context);
  }
}
