// What a build tells the person running it: each stage as it starts, each source as it answers, and the closing
// lines (usage, papers read, flagged items, warnings, what was built). Only lines for the log: no decision is made here.
import type { Logger } from '../core/ports.js';
import type { SourceReport } from '../core/types.js';
import type { UsageReport } from '../llm/usage.js';
import { formatFlaggedItems, formatProgress, formatUsageTable, outcomeNotes } from '../write/format-usage.js';
import type { WriterSetup } from '../write/writer-setup.js';
import type { BuildProgress, BuildResult } from './build-edition.js';
import type { FullTextSummary } from './edition-items.js';

/** Each stage as it starts; per-item progress is for model calls (the extractive writer takes milliseconds). */
export function buildProgress(log: Logger, { writer, llmClient }: WriterSetup): BuildProgress {
  return {
    onStage: (stage, detail) => log.info(`› ${STAGE_LABELS[stage]} ${detail}`),
    ...(writer.name === 'extractive'
      ? {}
      : {
          onItemWritten: (done: number, total: number) =>
            log.info(`  written ${done}/${total}${formatProgress(llmClient.progress())}`),
        }),
  };
}

/** The build's closing lines: usage, reading, flagged items, warnings, what was built and by which writers. */
export function reportBuild({
  log,
  result,
  usage,
  seconds,
  degraded,
}: {
  log: Logger;
  result: BuildResult;
  usage: UsageReport;
  seconds: string;
  degraded: boolean;
}): void {
  if (usage.calls > 0 || usage.cacheHits > 0) log.info(formatUsageTable(usage));
  const reading = formatFullText(result.fullText);
  if (reading) log.info(reading);
  const flagged = formatFlaggedItems(result.edition.items);
  if (flagged) log.info(`\n${flagged}`);
  if (result.warnings.length) {
    log.info(`\n${result.warnings.length} warning(s):`);
    for (const warning of result.warnings) log.info(`  - ${warning}`);
  }
  log.info(
    `\nBuilt "${result.edition.title}" — ${result.edition.items.length} items, ${seconds} s, writer: ${result.edition.writer}`,
  );
  const writers = itemsByWriter(result.edition.items);
  if (writers) log.info(`Items written by: ${writers}`);
  if (degraded) {
    log.info(
      `Some of the edition was not written as asked: ${outcomeNotes(usage).join('; ')}. ` +
        'See edition.json (writer, checks) for each item.',
    );
  }
}

/** "Papers: 2 of 3 read in full; their source text ≈ 5,800 tokens (their abstracts alone ≈ 420)". */
export function formatFullText(summary: FullTextSummary): string | null {
  if (summary.papers === 0) return null;
  const count = (value: number) => value.toLocaleString('en-US');
  const cost =
    summary.read > 0
      ? `; their source text ≈ ${count(summary.sourceTokens.fullText)} tokens (their abstracts alone ≈ ${count(summary.sourceTokens.abstract)})`
      : '';
  const why = Object.entries(summary.abstractOnly)
    .map(([reason, papers]) => `\n  ${papers} from the abstract: ${reason}`)
    .join('');
  return `Papers: ${summary.read} of ${summary.papers} read in full${cost}${why}`;
}

export function isDegraded(usage: UsageReport): boolean {
  return (
    usage.fallbackItems > 0 ||
    usage.flaggedItems > 0 ||
    usage.checkFailedItems > 0 ||
    usage.failedCalls > 0 ||
    usage.budgetExhausted
  );
}

/** "openai:gpt-4.1-mini ×8, ollama:qwen3:8b ×3, extractive ×1" when more than one writer wrote the items, else null. */
function itemsByWriter(items: { writer: string }[]): string | null {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.writer, (counts.get(item.writer) ?? 0) + 1);
  if (counts.size < 2) return null;
  return [...counts].map(([writer, count]) => `${writer} ×${count}`).join(', ');
}

const STAGE_LABELS = {
  ingest: 'Ingesting sources for',
  enrich: 'Enriching',
  select: 'Selecting from',
  write: 'Writing',
  save: 'Saving edition',
} as const;

export function formatSourceLine(report: SourceReport): string {
  const mark = report.status === 'ok' ? '✓' : '✗';
  const warnings = report.warnings?.length ? ` (${report.warnings.length} warning(s))` : '';
  const error = report.error ? ` — ${report.error}` : '';
  if (report.notModified)
    return `  ${mark} ${report.id}: not modified since the last run (its items are stored)`;
  return `  ${mark} ${report.id}: ${report.items} item(s)${warnings}${error}`;
}
