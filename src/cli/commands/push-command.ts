import { InvalidArgumentError, Option } from 'commander';
import { PUSH_SERVICES, type PushService } from '../../config/deliver-schema.js';
import { type WeekOptions, weekCommand } from '../options.js';

interface PushCommandOptions extends WeekOptions {
  to: PushService;
  baseUrl?: string;
}

export const register = weekCommand<PushCommandOptions>({
  name: 'push',
  flags: (own) =>
    own
      .addOption(
        new Option('--to <service>', 'listmonk or buttondown (configured under push.<service>)')
          .choices(PUSH_SERVICES)
          .makeOptionMandatory(),
      )
      .option(
        '--base-url <url>',
        'site address for "view in your browser" links (default: publish.baseUrl)',
        parseUrl,
      ),
  run: async (digest, { week, options, context }) => {
    const outcome = await digest.push({
      week,
      to: options.to,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
    context.stdout.write(`${outcome.service}\t${outcome.action}\t${outcome.id}\n`);
  },
});

function parseUrl(value: string): string {
  if (!/^https?:\/\/[^\s]+$/i.test(value)) throw new InvalidArgumentError('expected an http(s) URL');
  return value;
}
