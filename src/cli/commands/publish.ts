import type { Command } from 'commander';
import { checkWritableFolder, resolveWeek } from '../../app/inputs.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, checkDataDir, digestOptions, weekOption, withStoreOptions } from '../options.js';

interface PublishCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  baseUrl?: string;
  chat: boolean;
}

export function register(program: Command, context: CliContext): void {
  const command = program
    .command('publish')
    .description(
      'Mark an edition published and write the site, feeds, email and Markdown (the archive from the store)',
    );
  weekOption(command)
    .option('--out <dir>', 'output folder', 'out')
    .option('--base-url <url>', 'absolute URL the site is served from (default: publish.baseUrl)')
    .option('--no-chat', 'do not post to the configured chat channels (digest chat does it later)');
  withStoreOptions(command).action(async (options: PublishCommandOptions) => {
    const week = resolveWeek(options.week, new Date());
    const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
    await checkDataDir(options, context);
    const { withDigest } = await import('../../app/open-digest.js');
    await withDigest(digestOptions(options, context), async (digest) => {
      const outcome = await digest.publish({
        week,
        outDir,
        chat: options.chat,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      });
      context.stdout.write(`${outcome.pagePath}\n`);
      // Published either way; status 3 tells a scheduler that a chat channel did not get it.
      if (outcome.needsALook) context.exitCode = 3;
    });
  });
}
