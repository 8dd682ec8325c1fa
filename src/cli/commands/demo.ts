import type { Command } from 'commander';
import { checkWritableFolder } from '../../app/inputs.js';
import type { CliContext } from '../context.js';
import { checkDataDir, digestOptions } from '../options.js';

interface DemoOptions {
  out: string;
  dataDir: string;
  verbose?: boolean;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('demo')
    .description('Build the bundled sample week (2026-05-04) offline: recorded real feeds served on loopback')
    .option('--out <dir>', 'output folder', 'out')
    .option('--data-dir <dir>', 'PGlite data folder for the sample (kept apart from ./data)', 'data-sample')
    .option('--verbose', 'more log lines')
    .action(async (options: DemoOptions) => {
      const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
      await checkDataDir(options, context);
      const { runDemo } = await import('../../app/demo.js');
      const outcome = await runDemo({ ...digestOptions(options, context), outDir });
      context.stdout.write(`${outcome.pagePath}\n`);
    });
}
