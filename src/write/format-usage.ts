// The table `digest build` prints after an LLM build: one row per model, one per purpose, then the totals.
import { type ModelUsage, USAGE_PURPOSES, type UsageReport } from '../llm/usage.js';

const HEADERS = ['model', 'calls', 'cache hits', 'tokens in', 'tokens out', 'cost (USD)'] as const;

function row(
  name: string,
  usage: Pick<ModelUsage, 'calls' | 'cacheHits' | 'tokensIn' | 'tokensOut' | 'costUsd'>,
) {
  return [
    name,
    String(usage.calls),
    String(usage.cacheHits),
    usage.tokensIn.toLocaleString('en-US'),
    usage.tokensOut.toLocaleString('en-US'),
    `$${usage.costUsd.toFixed(4)}`,
  ];
}

export function formatUsageTable(usage: UsageReport): string {
  const models = Object.entries(usage.byModel)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, model]) => row(name, model));
  const purposes = USAGE_PURPOSES.flatMap((purpose) => {
    const spent = usage.byPurpose?.[purpose];
    return spent ? [row(`for ${purpose}`, spent)] : [];
  });
  const rows = [[...HEADERS], ...models, ...purposes, row('total', usage)];
  const widths = HEADERS.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  const lines = [
    format(rows[0]!),
    rule,
    ...models.map(format),
    ...(purposes.length ? [rule, ...purposes.map(format)] : []),
    rule,
    format(rows.at(-1)!),
  ];
  const notes = [`wall time ${(usage.wallMs / 1000).toFixed(1)} s`];
  if (usage.failedCalls) notes.push(`${usage.failedCalls} failed call(s)`);
  if (usage.fallbackItems) notes.push(`${usage.fallbackItems} item(s) fell back to the extractive writer`);
  if (usage.flaggedItems) notes.push(`${usage.flaggedItems} item(s) flagged by the faithfulness check`);
  if (usage.budgetExhausted) notes.push('cost limit reached: remaining work was written extractively');
  const unpriced = usage.unpricedModels.filter((model) => !model.startsWith('ollama:'));
  if (unpriced.length)
    notes.push(`no price known for ${unpriced.join(', ')} (counted as $0; set llm.prices)`);
  return `\nLLM usage\n${lines.join('\n')}\n${notes.join(' · ')}`;
}

/** Lines naming the items an editor should look at (flagged by the check, or written by the fallback), or null. */
export function formatFlaggedItems(
  items: { title: string; writer: string; checks?: unknown }[],
): string | null {
  const lines: string[] = [];
  for (const item of items) {
    const checks = item.checks as
      | {
          flagged?: boolean;
          status?: string;
          notes?: string[];
          claims?: { verdict: string; factual: boolean; claim: string }[];
        }
      | undefined;
    if (!checks?.flagged) continue;
    const unsupported = (checks.claims ?? []).filter(
      (claim) => claim.factual && claim.verdict === 'unsupported',
    );
    const detail = unsupported.length
      ? `${unsupported.length} unsupported claim(s): ${unsupported.map((claim) => `"${claim.claim}"`).join('; ')}`
      : (checks.notes ?? []).join(' ');
    lines.push(`  ! ${item.title} [${checks.status ?? 'flagged'}, ${item.writer}] ${detail}`.trimEnd());
  }
  return lines.length ? `${lines.length} item(s) need a look:\n${lines.join('\n')}` : null;
}
