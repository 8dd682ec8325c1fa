import type { Command } from 'commander';
import { checkWritableFolder } from '../../config/inputs.js';
import type { CliContext } from '../context.js';
import {
  type CommonOptions,
  commandWeek,
  weekOption,
  withCommandDigest,
  withStoreOptions,
} from '../options.js';

interface EmailCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  baseUrl?: string;
  send?: boolean;
  to?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, context: CliContext): void {
  const command = program
    .command('email')
    .description(
      'Write the edition as email: email.html, email.txt and a complete edition.eml (optionally send it)',
    );
  weekOption(command)
    .option('--out <dir>', 'output folder', 'out')
    .option('--base-url <url>', 'site address for "View in your browser" links (default: publish.baseUrl)')
    .option('--send', 'send edition.eml through publish.email.smtp (password from its passwordEnv variable)')
    .option('--to <address>', 'recipient for --send, repeatable (default: publish.email.to)', collect);
  withStoreOptions(command).action(async (options: EmailCommandOptions) => {
    const week = commandWeek(options, context);
    const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
    await withCommandDigest(options, context, async (digest) => {
      const outcome = await digest.email({
        week,
        outDir,
        send: options.send ?? false,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.to ? { to: options.to } : {}),
      });
      context.stdout.write(`${outcome.emlPath}\n`);
    });
  });
}
