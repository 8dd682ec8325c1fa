import { type WeekOptions, weekCommand } from '../options.js';

interface EmailCommandOptions extends WeekOptions {
  baseUrl?: string;
  send?: boolean;
  to?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export const register = weekCommand<EmailCommandOptions>({
  name: 'email',
  out: { description: 'folder the email files go to (publish writes them into the site)', folder: 'drafts' },
  flags: (own) =>
    own
      .option('--base-url <url>', 'site address for "View in your browser" links (default: publish.baseUrl)')
      .option(
        '--send',
        'send edition.eml through publish.email.smtp (password from its passwordEnv variable)',
      )
      .option('--to <address>', 'recipient for --send, repeatable (default: publish.email.to)', collect),
  run: async (digest, { week, options, outDir, context }) => {
    const outcome = await digest.email({
      week,
      outDir,
      send: options.send ?? false,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.to ? { to: options.to } : {}),
    });
    context.stdout.write(`${outcome.emlPath}\n`);
  },
});
