import type { Command } from 'commander';
import { formatTasteReport, resetTasteNow, tasteReport } from '../../select/taste-report.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface TasteOptions extends CommonOptions {
  week?: string;
  json?: boolean;
  reset?: boolean;
}

/** `digest taste`: what the ranking learned from the editor's history; `--reset` forgets it. */
export function register(program: Command, context: CliContext): void {
  program
    .command('taste')
    .description(
      'Print what the ranking learned from published editions, pins and skips (--reset forgets it)',
    )
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
    .option('--reset', 'forget the history so far; learning starts again from the next published edition')
    .option('--json', 'machine-readable output')
    .option('--config <file>', 'config file')
    .option('--data-dir <dir>', 'PGlite data folder')
    .action(async (options: TasteOptions) => {
      const week = resolveWeek(options.week);
      await withRuntime(options, context, async ({ store }) => {
        if (options.reset) {
          const at = await resetTasteNow(store, new Date());
          context.stdout.write(
            `Learned taste reset at ${at}: history published before then no longer counts.\n`,
          );
          return;
        }
        const report = await tasteReport(store, week);
        context.stdout.write(
          options.json ? `${JSON.stringify(report, null, 2)}\n` : formatTasteReport(report),
        );
      });
    });
}
