import type { EditionStats } from '../../editions/index.js';
import { type WeekOptions, weekCommand } from '../options.js';
import { plainLine } from '../terminal.js';

interface StatsOptions extends WeekOptions {
  json?: boolean;
}

/** `digest stats`: what readers did with a published edition — clicks per item, mails and what followed, the trend. */
export const register = weekCommand<StatsOptions>({
  name: 'stats',
  weekDefault: 'the newest published edition',
  readOnly: true,
  flags: (own) => own.option('--json', 'machine-readable output'),
  run: async (digest, { options, context }) => {
    const stats = await digest.stats({ week: options.week });
    context.stdout.write(options.json ? `${JSON.stringify(stats, null, 2)}\n` : formatStats(stats));
  },
});

const percent = (share: number) => `${Math.round(share * 100)}%`;

function formatStats(stats: EditionStats): string {
  const { mail } = stats;
  const perReader = stats.items.some((item) => item.uniqueReaders !== null);
  const lines = [
    `Edition ${stats.edition}: ${plainLine(stats.title)}`,
    `  ${stats.clicks} click(s) by readers; ${stats.prefetched} prefetch(es) by link scanners, counted apart.`,
    `  Mails sent: ${mail.sent}; before the next edition: bounces: ${mail.bounced}; complaints: ${mail.complained}; unsubscribes: ${mail.unsubscribed}.`,
    '',
    `   #  clicks  share${perReader ? '  readers' : ''}  prefetched  title`,
  ];
  for (const item of stats.items) {
    const readers = perReader ? `  ${String(item.uniqueReaders ?? 0).padStart(7)}` : '';
    lines.push(
      `  ${String(item.position).padStart(2)}  ${String(item.clicks).padStart(6)}  ${percent(item.share).padStart(5)}${readers}  ${String(item.prefetched).padStart(10)}  ${plainLine(item.title)}`,
    );
  }
  lines.push(
    '',
    'Trend (newest first):',
    '  edition     clicks  mails  clicks/mail  prefetched  bounces  complaints  unsubscribes',
  );
  for (const point of stats.trend) {
    const rate = point.clicksPerMail === null ? '—' : String(point.clicksPerMail);
    lines.push(
      `  ${point.edition}  ${String(point.clicks).padStart(6)}  ${String(point.sent).padStart(5)}  ${rate.padStart(11)}  ${String(point.prefetched).padStart(10)}` +
        `  ${String(point.bounced).padStart(7)}  ${String(point.complained).padStart(10)}  ${String(point.unsubscribed).padStart(12)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
