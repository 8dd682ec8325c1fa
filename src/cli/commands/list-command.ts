import type { OpenDigest } from '../../compose/index.js';
import type { PlannedItem } from '../../editions/index.js';
import { fillTheStore } from '../../editions/index.js';
import { parseCount, type WeekCall, type WeekOptions, weekCommand } from '../options.js';
import { plainLine } from '../terminal.js';

interface ListOptions extends WeekOptions {
  json?: boolean;
  limit: number;
  triage: boolean;
}

export const register = weekCommand<ListOptions>({
  name: 'list',
  readOnly: true,
  flags: (own) =>
    own
      .option('--json', 'machine-readable output')
      .option('--limit <n>', 'rows to print', parseCount, 40)
      .option('--no-triage', 'rank without the cached LLM triage scores'),
  run: printList,
});

async function printList(
  digest: OpenDigest,
  { week, options, context }: WeekCall<ListOptions>,
): Promise<void> {
  const { plan, picked, triage, savedDiffers } = await digest.list({ week, triage: options.triage });
  if (options.json) {
    const rows = plan.ranked.map((row) => ({ ...toRow(row), picked: picked.has(row.item.key) }));
    context.stdout.write(
      `${JSON.stringify({ week, triage, savedDiffers, candidates: rows, excluded: plan.excluded }, null, 2)}\n`,
    );
    return;
  }
  if (plan.ranked.length === 0) {
    const { empty } = await digest.storeStatus();
    context.stdout.write(
      empty
        ? `The store in ${digest.storeLocation} is empty: ${fillTheStore(week)}.\n`
        : `No candidates stored for the week ending ${week} in ${digest.storeLocation}: "./digest build --week ${week}" fetches them from your sources.\n`,
    );
    return;
  }
  context.stdout.write(formatTable(plan.ranked.slice(0, options.limit), picked));
  if (triage) {
    context.stdout.write(
      `\nLLM triage (${triage.model}, from the last build's cached answers): ${triage.rated} of ${triage.shortlist} shortlisted rated.`,
    );
  }
  context.stdout.write(
    `\n${plan.ranked.length} candidate(s), ${plan.picks.length} picked (*), ${plan.excluded.length} excluded.\n`,
  );
  if (savedDiffers) {
    context.stdout.write(
      `The saved edition of ${week} has ${savedDiffers} item(s) this ranking does not pick: it was built from ` +
        "other data or another config (the demo's is sample/digest.config.json; pass it with --config). " +
        `Rebuild to update it: ./digest build --week ${week} --no-ingest.\n`,
    );
  }
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

/**
 * Relevance (and triage) as the desk shows them, then each signal's contribution to the score ("… pts", the
 * "…Points" signals; every raw value is in --json).
 */
function formatTable(rows: PlannedItem[], picked: Set<string>): string {
  const all = [...new Set(rows.flatMap((row) => Object.keys(row.signals)))];
  const points = all.filter((name) => name.endsWith('Points'));
  const raw = ['relevance', 'triage'].filter((name) => all.includes(name));
  const columns = points.length
    ? [...raw, ...points, ...all.filter((name) => /penalty|^taste$/i.test(name) && !points.includes(name))]
    : all;
  const header = [
    '',
    'rank',
    'score',
    ...columns.map((name) => name.replace(/Points$/, ' pts')),
    'source',
    'key',
    'title',
  ];
  const lines = rows.map((row, index) => [
    picked.has(row.item.key) ? '*' : ' ',
    String(index + 1),
    row.score.toFixed(3),
    ...columns.map((name) => (row.signals[name] ?? 0).toFixed(2)),
    row.item.primarySource,
    clip(plainLine(row.item.key), 40),
    clip(plainLine(row.item.title), 60),
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

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
