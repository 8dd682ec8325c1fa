import { type WeekOptions, weekCommand } from '../options.js';

interface ChatCommandOptions extends WeekOptions {
  channel?: string;
  baseUrl?: string;
  again?: boolean;
}

export const register = weekCommand<ChatCommandOptions>({
  name: 'chat',
  flags: (own) =>
    own
      .option('--channel <id>', "only this channel (an id from the config's chat list)")
      .option('--base-url <url>', 'site address for the links to the edition (default: publish.baseUrl)')
      .option('--again', 'post again where an earlier run already posted it'),
  run: async (digest, { week, options, context }) => {
    const outcome = await digest.chat({
      week,
      again: options.again ?? false,
      ...(options.channel ? { channel: options.channel } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
    for (const result of outcome.results) {
      context.stdout.write(`${result.id}\t${result.status}\t${result.sent}/${result.total}\n`);
    }
    if (outcome.failed > 0) context.exitCode = 3;
  },
});
