import type { Command } from 'commander';
import { editionWindow } from '../../core/dates.js';
import { selectionPolicy } from '../../pipeline/build-edition.js';
import { planEdition } from '../../select/plan-edition.js';
import type { PlannedItem } from '../../select/types.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface ListOptions extends CommonOptions {
  week?: string;
  json?: boolean;
  limit: string;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('list')
    .description("Print the week's stored candidates, ranked, with each signal and the final score")
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
    .option('--json', 'machine-readable output')
    .option('--limit <n>', 'rows to print', '40')
    .option('--config <file>', 'config file')
    .option('--data-dir <dir>', 'PGlite data folder')
    .action(async (options: ListOptions) => {
      const week = resolveWeek(options.week);
      await withRuntime(options, context, async ({ config, store }) => {
        const candidates = await store.listCandidates(editionWindow(week));
        const plan = planEdition(candidates, await selectionPolicy(config, store, week), week);
        const picked = new Set(plan.picks.map((pick) => pick.item.key));
        const limit = Math.max(1, Number(options.limit) || 40);
        if (options.json) {
          const rows = plan.ranked.map((row) => ({ ...toRow(row), picked: picked.has(row.item.key) }));
          context.stdout.write(
            `${JSON.stringify({ week, candidates: rows, excluded: plan.excluded }, null, 2)}\n`,
          );
          return;
        }
        if (plan.ranked.length === 0) {
          context.stdout.write(
            `No candidates stored for the week ending ${week}. Run "digest build --week ${week}" first.\n`,
          );
          return;
        }
        context.stdout.write(formatTable(plan.ranked.slice(0, limit), picked));
        context.stdout.write(
          `\n${plan.ranked.length} candidate(s), ${plan.picks.length} picked (*), ${plan.excluded.length} excluded.\n`,
        );
      });
    });
}

function toRow(row: PlannedItem) {
  return {
    key: row.item.key,
    title: row.item.title,
    source: row.item.primarySource,
    score: row.score,
    pinned: row.pinned,
    signals: row.signals,
  };
}

/** Each signal's contribution to the score ("…Points" signals; the raw values are in --json). */
function formatTable(rows: PlannedItem[], picked: Set<string>): string {
  const all = [...new Set(rows.flatMap((row) => Object.keys(row.signals)))];
  const points = all.filter((name) => name.endsWith('Points'));
  const columns = points.length
    ? [...points, ...all.filter((name) => /penalty/i.test(name) && !points.includes(name))]
    : all;
  const header = [
    '',
    'rank',
    'score',
    ...columns.map((name) => name.replace(/Points$/, '')),
    'source',
    'title',
  ];
  const lines = rows.map((row, index) => [
    picked.has(row.item.key) ? '*' : ' ',
    String(index + 1),
    row.score.toFixed(3),
    ...columns.map((name) => (row.signals[name] ?? 0).toFixed(2)),
    row.item.primarySource,
    row.item.title.length > 60 ? `${row.item.title.slice(0, 59)}…` : row.item.title,
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ');
  return `${[format(header), ...lines.map(format)].join('\n')}\n`;
}
