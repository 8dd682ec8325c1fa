import type { Command } from 'commander';
import { latestMonday } from '../../core/dates.js';
import { fetchManualItem } from '../../sources/manual.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface AddOptions extends CommonOptions {
  week?: string;
  note?: string;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('add')
    .description("Add an item by hand (a URL or an arXiv id); it is pinned into that week's edition")
    .argument('<url-or-arxiv-id>', 'e.g. https://example.com/post or 2604.24819')
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
    .option('--note <text>', "editor's note kept with the item")
    .option('--config <file>', 'config file')
    .option('--data-dir <dir>', 'PGlite data folder')
    .action(async (input: string, options: AddOptions) => {
      const week = options.week ? resolveWeek(options.week) : latestMonday();
      await withRuntime(options, context, async ({ store, http, config }) => {
        const item = await fetchManualItem(input, { http, week, arxivApiUrl: config.enrich.arxivApiUrl });
        const stored = await store.addManualItem(item, week, options.note ?? null);
        context.stdout.write(`Added "${stored.title}" (${stored.key}) to the edition of ${week}.\n`);
      });
    });
}
