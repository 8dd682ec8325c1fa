import type { Command } from 'commander';
import { checkWritableFolder } from '../../config/inputs.js';
import type { CliContext } from '../context.js';
import { checkDataDir, digestOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface DemoOptions {
  out: string;
  dataDir?: string;
  verbose?: boolean;
}

export function register(program: Command, context: CliContext): void {
  declareCommand(program, 'demo')
    .option('--out <dir>', "the draft's folder (digest publish writes the site, out/)", 'drafts')
    // The default data folder, so the commands after the demo (list, publish, serve, editors) meet it without flags.
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--verbose', 'more log lines')
    .action(async (options: DemoOptions) => {
      const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
      await checkDataDir(options, context);
      const { runDemo } = await import('../../compose/index.js');
      const outcome = await runDemo({ ...digestOptions(options, context), outDir });
      context.stderr.write(demoNextSteps(outcome.storeLocation, options.dataDir !== undefined));
      context.stdout.write(`${outcome.pagePath}\n`);
    });
}

/**
 * Where the sample week went, and the commands that read it there (the same folder, no flags needed), written as the
 * README has them typed: `./digest`, the clone's link to bin/digest.js (`npm start` runs this command).
 */
function demoNextSteps(storeLocation: string, chosenFolder: boolean): string {
  const flag = chosenFolder ? ` --data-dir ${JSON.stringify(storeLocation)}` : '';
  return [
    `The sample week is stored in ${storeLocation}; the next commands read it there:`,
    `  ./digest list --week 2026-05-04${flag}`,
    `  ./digest publish --week 2026-05-04 --base-url http://127.0.0.1:8080${flag}`,
    `  ./digest serve${flag}          (with DIGEST_SECRET set: ./digest init writes it to .env)`,
    '',
  ].join('\n');
}
