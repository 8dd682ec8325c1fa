// Ingest: every enabled source fetched (a few at a time), each source's items stored in its own transaction.
// One result per source, never one exception for the run: a dead feed is reported and the others go on.
import type { SourceConfig } from '../config/schema.js';
import { errorMessage } from '../core/errors.js';
import type { HttpClient, Logger, Source } from '../core/ports.js';
import type { DateWindow, SourceReport } from '../core/types.js';
import type { Store } from '../store/types.js';

export interface IngestOptions {
  sources: SourceConfig[];
  window: DateWindow;
  store: Store;
  http: HttpClient;
  log: Logger;
  createSource: (config: SourceConfig) => Source;
  /** How many sources fetch at once. */
  concurrency?: number;
  signal?: AbortSignal;
  onSourceDone?: (report: SourceReport) => void;
}

export async function ingest(options: IngestOptions): Promise<SourceReport[]> {
  const enabled = options.sources.filter((source) => source.enabled && source.type !== 'manual');
  const reports: SourceReport[] = new Array(enabled.length);
  let next = 0;
  const worker = async () => {
    while (next < enabled.length) {
      const index = next++;
      const config = enabled[index]!;
      const report = await ingestOne(config, options);
      reports[index] = report;
      options.onSourceDone?.(report);
    }
  };
  const workers = Array.from({ length: Math.min(options.concurrency ?? 4, enabled.length) }, worker);
  await Promise.all(workers);
  return reports;
}

async function ingestOne(config: SourceConfig, options: IngestOptions): Promise<SourceReport> {
  const { store, log } = options;
  try {
    const source = options.createSource(config);
    const state = await store.getSourceState(config.id);
    const result = await source.fetch({
      window: options.window,
      http: options.http,
      state,
      log,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Items first, validators after: a crash in between only costs a re-fetch, never a lost item.
    if (result.items.length) await store.upsertItems(result.items);
    if (result.state) await store.setSourceState(config.id, result.state);
    const report: SourceReport = {
      id: config.id,
      status: result.error ? 'error' : 'ok',
      items: result.items.length,
    };
    if (result.error) report.error = result.error;
    if (result.warnings.length) report.warnings = result.warnings;
    return report;
  } catch (error) {
    log.warn(`${config.id}: ${errorMessage(error)}`);
    return { id: config.id, status: 'error', items: 0, error: errorMessage(error) };
  }
}
