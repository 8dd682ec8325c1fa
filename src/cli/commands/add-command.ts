import { type WeekOptions, weekCommand } from '../options.js';
import { plainLine } from '../terminal.js';

interface AddOptions extends WeekOptions {
  note?: string;
  offline?: boolean;
}

export const register = weekCommand<AddOptions>({
  name: 'add',
  argument: ['<url-or-arxiv-id>', 'e.g. https://example.com/post or 2604.24819'],
  flags: (own) =>
    own
      .option('--note <text>', "editor's note kept with the item")
      .option('--offline', 'make no network request: only an item already stored can be added'),
  open: (options) => ({ offline: options.offline ?? false }),
  run: async (digest, { week, options, args: [input = ''], context }) => {
    const stored = await digest.add({
      week,
      input,
      note: options.note ?? null,
      offline: options.offline ?? false,
    });
    context.stdout.write(
      `Added "${plainLine(stored.title)}" (${plainLine(stored.key)}) to the edition of ${week}.\n`,
    );
  },
});
