import type { TasteReport } from '../../editions/index.js';
import { type WeekOptions, weekCommand } from '../options.js';
import { plainLine } from '../terminal.js';

interface TasteOptions extends WeekOptions {
  json?: boolean;
  reset?: boolean;
}

/** `digest taste`: what the ranking learned from the editor's history; `--reset` forgets it. */
export const register = weekCommand<TasteOptions>({
  name: 'taste',
  flags: (own) =>
    own
      .option('--reset', 'forget the history so far; learning starts again from the next published edition')
      .option('--json', 'machine-readable output'),
  run: async (digest, { week, options, context }) => {
    const outcome = await digest.taste({ week, reset: options.reset ?? false });
    if ('reset' in outcome) {
      context.stdout.write(
        `Learned taste reset at ${outcome.reset}: history published before then no longer counts.\n`,
      );
      return;
    }
    context.stdout.write(
      options.json ? `${JSON.stringify(outcome.report, null, 2)}\n` : formatTasteReport(outcome.report),
    );
  },
});

function formatTasteReport(report: TasteReport): string {
  const since = report.resetAt ? ` (history since the reset of ${report.resetAt})` : '';
  const lines = [
    `Learned taste for the week ${report.week}${since}:`,
    `  ${report.editions} published edition(s), ${report.positives} positive and ${report.negatives} negative example(s), ${report.pins} pin(s), ${report.skips} skip(s).`,
  ];
  if (report.share === 0) {
    lines.push(
      '  Nothing learned yet: the audience profile alone ranks. Publish editions, pin and skip to teach it.',
    );
  } else {
    lines.push(
      `  Share of relevance from learned taste: ${report.share}, learned with ${report.learnedWith}.`,
    );
    if (report.learnedWith === 'tf-idf') {
      const terms = (list: [string, number][]) =>
        list.map(([term, weight]) => `${term} (${weight})`).join(', ');
      lines.push(`  Terms that favour a pick: ${terms(report.positiveTerms) || '—'}`);
      lines.push(`  Terms that count against: ${terms(report.negativeTerms) || '—'}`);
    } else {
      const titles = (list: string[]) => list.map((title) => `    - ${plainLine(title)}`);
      lines.push('  Embeddings have no terms to show; the history items it rates most likely to be picked:');
      lines.push(...titles(report.positiveTitles));
      lines.push('  and least likely:');
      lines.push(...titles(report.negativeTitles));
    }
  }
  lines.push(...readerLines(report.readers));
  return `${lines.join('\n')}\n`;
}

/** What readers taught it: the topics, sources and kinds they clicked more and less than the rest of an edition. */
function readerLines(readers: TasteReport['readers']): string[] {
  if (!readers)
    return [
      'What readers taught it: nothing yet (no published edition with enough clicks, or selection.readerWeight is 0).',
    ];
  const features = (list: typeof readers.clickedMore) =>
    list.map((feature) => `${plainLine(feature.feature)} (×${feature.affinity})`).join(', ') || '—';
  return [
    `What readers taught it, from ${readers.clicks} click(s) in ${readers.editions} edition(s) (weight ${readers.weight}: at most ±${readers.weight} points):`,
    `  Clicked more than the rest of their edition: ${features(readers.clickedMore)}`,
    `  Clicked less: ${features(readers.clickedLess)}`,
  ];
}
