import { InvalidArgumentError } from 'commander';
import type { ModelEvaluation } from '../../editions/index.js';
import { type ModelCallOptions, parseUsd, type WeekOptions, weekCommand } from '../options.js';

interface EvalOptions extends WeekOptions, ModelCallOptions {
  models: string[];
  json?: boolean;
}

function parseModels(value: string): string[] {
  const models = value
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);
  const bad = models.find(
    (model) => model !== 'extractive' && !/^[a-z][a-z0-9-]*:[^\s:][^\s]*$/i.test(model),
  );
  if (!models.length || bad)
    throw new InvalidArgumentError(
      `expected provider:model ids separated by commas, or "extractive"${bad ? ` (got "${bad}")` : ''}`,
    );
  return [...new Set(models)];
}

/** `digest eval`: write the week's picks with each model and compare them (cached: a rerun is free). */
export const register = weekCommand<EvalOptions>({
  name: 'eval',
  flags: (own) =>
    own
      .requiredOption('--models <ids>', 'comma-separated provider:model ids, or "extractive"', parseModels)
      .option('--no-check', 'skip the faithfulness check')
      .option('--refresh', 'ask every call again')
      .option('--max-cost <usd>', 'stop spending at this amount per model', parseUsd)
      .option('--json', 'machine-readable output, with every item audit'),
  run: async (digest, { week, options, context }) => {
    const reports = await digest.evaluate({
      week,
      models: options.models,
      check: options.check,
      refresh: options.refresh ?? false,
      ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
    });
    if (reports.length === 0) {
      context.stdout.write(`No candidates for the week ending ${week}: build it first.\n`);
      return;
    }
    context.stdout.write(options.json ? `${JSON.stringify(reports, null, 2)}\n` : formatReports(reports));
    const needsALook = reports.some(
      (report) => report.flaggedClaims > 0 || report.unsupportedSentences > 0 || report.fallbacks > 0,
    );
    if (needsALook) context.exitCode = 3;
  },
});

function formatReports(reports: ModelEvaluation[]): string {
  const rows: [string, (report: ModelEvaluation) => string][] = [
    ['items', (r) => String(r.items)],
    ['calls (cached)', (r) => `${r.calls} (${r.cacheHits})`],
    ['tokens in / out', (r) => `${r.tokensIn} / ${r.tokensOut}`],
    ['cost USD', (r) => r.costUsd.toFixed(4)],
    ['wall s', (r) => r.wallSeconds.toFixed(1)],
    ['fell back', (r) => String(r.fallbacks)],
    ['flagged claims', (r) => String(r.flaggedClaims)],
    ['unsupported sentences', (r) => `${r.unsupportedSentences} of ${r.sentences}`],
    ['superlatives not in source', (r) => (r.superlatives.length ? r.superlatives.join(', ') : '0')],
    ['first person ("we")', (r) => String(r.firstPersonItems)],
    ['mean summary words', (r) => String(r.meanSummaryWords)],
    ['levels A / I / Adv', (r) => `${r.levels.Accessible} / ${r.levels.Intermediate} / ${r.levels.Advanced}`],
  ];
  const header = ['', ...reports.map((report) => report.model)];
  const lines = rows.map(([label, value]) => [label, ...reports.map(value)]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  const details = reports.flatMap((report) =>
    report.audits.flatMap((audit) =>
      audit.unsupported.map(
        (sentence) => `  ${report.model} · ${audit.key}: not in the source: "${sentence}"`,
      ),
    ),
  );
  return `${[format(header), ...lines.map(format)].join('\n')}\n${details.length ? `\n${details.join('\n')}\n` : ''}`;
}
