// The table `digest build` prints after an LLM build: one row per model, one per purpose, then the totals.

import { compareText } from '../core/text.js';
import type { LlmProgress } from '../llm/client.js';
import { type ModelUsage, tokensPerSecondOf, USAGE_PURPOSES, type UsageReport } from '../llm/usage.js';

const HEADERS = [
  'model',
  'calls',
  'cache hits',
  'tokens in',
  'tokens out',
  'tokens/s',
  'cost (USD)',
] as const;

function row(
  name: string,
  usage: Pick<ModelUsage, 'calls' | 'cacheHits' | 'tokensIn' | 'tokensOut' | 'costUsd'> & {
    latencyMs?: number;
  },
) {
  const speed =
    usage.latencyMs === undefined ? null : tokensPerSecondOf({ ...usage, latencyMs: usage.latencyMs });
  return [
    name,
    String(usage.calls),
    String(usage.cacheHits),
    usage.tokensIn.toLocaleString('en-US'),
    usage.tokensOut.toLocaleString('en-US'),
    speed === null ? '' : speed.toFixed(1),
    `$${usage.costUsd.toFixed(4)}`,
  ];
}

/** "7 written extractively (takeaways not 3 ×4, summary too long ×3)", most frequent reason first; null when none. */
export function formatFallbacks(
  usage: Pick<UsageReport, 'fallbackItems' | 'fallbackReasons'>,
): string | null {
  if (!usage.fallbackItems) return null;
  const reasons = Object.entries(usage.fallbackReasons ?? {})
    .sort(([a, countA], [b, countB]) => countB - countA || compareText(a, b))
    .map(([reason, count]) => `${reason} ×${count}`);
  return `${usage.fallbackItems} written extractively${reasons.length ? ` (${reasons.join(', ')})` : ''}`;
}

/** What did not go as asked, in a few words each: fallbacks with reasons, items the check judged, failed checks. */
export function outcomeNotes(usage: UsageReport): string[] {
  const notes: string[] = [];
  const fallbacks = formatFallbacks(usage);
  if (fallbacks) notes.push(fallbacks);
  if (usage.flaggedItems) notes.push(`${usage.flaggedItems} flagged by the faithfulness check`);
  if (usage.checkFailedItems) notes.push(`${usage.checkFailedItems} not checked (the check call failed)`);
  if (usage.failedCalls) notes.push(`${usage.failedCalls} failed call(s)`);
  if (usage.standInCalls) notes.push(`${usage.standInCalls} call(s) answered by a fallback model`);
  if (usage.budgetExhausted) notes.push('cost limit reached: remaining work was written extractively');
  return notes;
}

export function formatUsageTable(usage: UsageReport): string {
  const models = Object.entries(usage.byModel)
    .sort(([a], [b]) => compareText(a, b))
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
  const notes = [`wall time ${(usage.wallMs / 1000).toFixed(1)} s`, ...outcomeNotes(usage)];
  if (usage.requeuedCalls) {
    notes.push(
      `${usage.requeuedCalls} call(s) timed out in the server's queue and were asked again, fewer at a time`,
    );
  }
  const unpriced = usage.unpricedModels;
  if (unpriced.length)
    notes.push(`no price known for ${unpriced.join(', ')} (counted as $0; set llm.prices)`);
  return `\nLLM usage\n${lines.join('\n')}\n${notes.join(' · ')}`;
}

/** " · calls: 1 running, 6 waiting · openai-compatible:local 14.2 tokens/s" for the progress line. */
export function formatProgress(progress: LlmProgress): string {
  const speeds = Object.entries(progress.tokensPerSecond).map(
    ([modelId, speed]) => `${modelId} ${speed.toFixed(1)} tokens/s`,
  );
  return [` · calls: ${progress.running} running, ${progress.waiting} waiting`, ...speeds].join(' · ');
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
