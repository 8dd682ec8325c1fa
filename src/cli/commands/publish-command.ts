import type { Command } from 'commander';
import type { OpenDigest } from '../../compose/index.js';
import { checkWritableFolder } from '../../config/inputs.js';
import { FlaggedEditionError } from '../../core/edition-flags.js';
import { ThinEditionError } from '../../core/edition-thin.js';
import { BuildError } from '../../core/errors.js';
import { fillTheStore } from '../../editions/index.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, parseWeek, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface PublishCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  baseUrl?: string;
  chat: boolean;
  allowFlagged?: boolean;
  allowThin?: boolean;
}

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'publish');
  command
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the newest edition built)', parseWeek)
    .option('--out <dir>', 'the site folder (digest serve --out reads it)', 'out')
    .option('--base-url <url>', 'absolute URL the site is served from (default: publish.baseUrl)')
    .option('--no-chat', 'do not post to the configured chat channels (digest chat does it later)')
    .option('--allow-flagged', 'publish even if items fell back to the extractive writer or are flagged')
    .option('--allow-thin', 'publish even if the edition has fewer items than selection.minItems');
  withStoreOptions(command).action(async (options: PublishCommandOptions) => {
    // Without --week: the newest stored edition (what the last build made), not today's Monday.
    const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const week = options.week ?? (await newestEdition(digest));
        const outcome = await digest.publish({
          week,
          outDir,
          chat: options.chat,
          ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
          ...(options.allowFlagged ? { allowFlagged: true } : {}),
          ...(options.allowThin ? { allowThin: true } : {}),
          ...(options.allowThin ? { allowThin: true } : {}),
        });
        context.stdout.write(`${outcome.pagePath}\n`);
        // Published either way; status 3 tells a scheduler that a chat channel did not get it.
        if (outcome.needsALook) context.exitCode = 3;
      },
    }).catch((error: unknown) => {
      // Not an error of the program: the edition needs a look (exit 3), as a degraded build does.
      if (!(error instanceof FlaggedEditionError || error instanceof ThinEditionError)) throw error;
      context.stderr.write(`${error.message}\n`);
      context.exitCode = 3;
    });
  });
}

async function newestEdition(digest: OpenDigest): Promise<string> {
  const { latestEdition } = await digest.storeStatus();
  if (!latestEdition)
    throw new BuildError(`There is no edition in ${digest.storeLocation} yet: ${fillTheStore()}.`);
  return latestEdition;
}
