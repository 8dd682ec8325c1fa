import { type Command, InvalidArgumentError } from 'commander';
import { runBuild } from '../build-run.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface BuildCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  ingest: boolean;
  offline?: boolean;
  model?: string;
  check: boolean;
  refresh?: boolean;
  maxCost?: number;
  enrich: boolean;
}

export function parseUsd(value: string): number {
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0)
    throw new InvalidArgumentError('expected an amount in USD, e.g. 0.50');
  return amount;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('build')
    .description('Ingest, select, write and render one edition (default: the most recent Monday)')
    .option('--week <date>', 'edition date YYYY-MM-DD; the edition covers the 7 days ending on it')
    .option('--out <dir>', 'output folder', 'out')
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--no-ingest', 'build from what is already stored')
    .option('--no-enrich', 'skip arXiv, citation and page look-ups')
    .option('--offline', 'use the extractive writer; make no LLM calls')
    .option('--model <id>', 'LLM for writing, as provider:model (e.g. openai:gpt-4.1-mini)')
    .option('--no-check', 'skip the faithfulness check of LLM output')
    .option('--refresh', 'ignore cached LLM responses')
    .option('--max-cost <usd>', 'stop LLM spending at this amount (rest: extractive)', parseUsd)
    .option('--verbose', 'more log lines')
    .addHelpText(
      'after',
      '\nExit status:\n' +
        '  0  built\n' +
        '  1  nothing could be built (every source failed, or no candidates)\n' +
        '  2  invalid config or flags\n' +
        '  3  built, but some LLM-written items fell back to the extractive\n' +
        '     writer or failed the faithfulness check',
    )
    .action(async (options: BuildCommandOptions) => {
      const week = resolveWeek(options.week);
      await withRuntime(options, context, async (runtime) => {
        const outcome = await runBuild(
          runtime,
          {
            week,
            out: options.out,
            ingest: options.ingest,
            enrich: options.enrich,
            offline: options.offline ?? false,
            check: options.check,
            refresh: options.refresh ?? false,
            ...(options.model ? { model: options.model } : {}),
            ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
          },
          context,
        );
        context.stdout.write(`${outcome.pagePath}\n`);
        // The edition is built either way; status 3 tells a scheduler that some items need an editor's look.
        if (outcome.degraded) context.exitCode = 3;
      });
    });
}
