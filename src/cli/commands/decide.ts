import type { Command } from 'commander';
import { arxivIdFromUrl, canonicalUrl, normaliseArxivId } from '../../core/ids.js';
import type { Store } from '../../store/types.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface DecideOptions extends CommonOptions {
  week?: string;
  undo?: boolean;
}

/** `digest pin` / `digest skip`: an editor's decision about one item for one week. */
export function register(program: Command, context: CliContext): void {
  for (const decision of ['pin', 'skip'] as const) {
    program
      .command(decision)
      .description(
        decision === 'pin'
          ? "Always include an item in a week's edition"
          : "Keep an item out of a week's edition",
      )
      .argument('<item>', 'item key (from "digest list"), arXiv id or URL')
      .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
      .option('--undo', 'remove the decision')
      .option('--config <file>', 'config file')
      .option('--data-dir <dir>', 'PGlite data folder')
      .action(async (input: string, options: DecideOptions) => {
        const week = resolveWeek(options.week);
        await withRuntime(options, context, async ({ store }) => {
          const key = await resolveItemKey(store, input);
          await store.setDecision(week, key, options.undo ? null : decision);
          context.stdout.write(
            `${options.undo ? `Removed ${decision} of` : decision === 'pin' ? 'Pinned' : 'Skipped'} ${key} for ${week}.\n`,
          );
        });
      });
  }
}

async function resolveItemKey(store: Store, input: string): Promise<string> {
  const candidates = [input];
  const arxivId = normaliseArxivId(input) ?? arxivIdFromUrl(input);
  if (arxivId) candidates.push(`arxiv:${arxivId}`);
  if (/^https?:\/\//i.test(input)) candidates.push(`url:${canonicalUrl(input)}`);
  for (const key of candidates) {
    if (await store.getItem(key)) return key;
  }
  throw new Error(
    `No stored item matches "${input}". Use a key from "digest list", or add it with "digest add".`,
  );
}
