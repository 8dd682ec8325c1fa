// Ingest: every enabled source fetched (a few at a time), each source's items stored in its own transaction.
// One result per source, never one exception for the run: a dead feed is reported and the others go on.
import type { SourceConfig } from '../config/schema.js';
import { errorMessage } from '../core/errors.js';
import type { HttpClient, Logger, Source, SourceFetchResult } from '../core/ports.js';
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
  // Fetch a few sources ahead, store in config order: when two sources carry the same item, the first configured
  // one is its primary source whichever answered first, and at most `concurrency` fetched results wait in memory.
  const ahead = Math.max(1, options.concurrency ?? 4);
  const fetches: Promise<Fetched>[] = [];
  const start = (index: number) => {
    if (index < enabled.length) fetches[index] = fetchOne(enabled[index]!, options);
  };
  for (let index = 0; index < ahead; index++) start(index);
  const reports: SourceReport[] = [];
  for (let index = 0; index < enabled.length; index++) {
    const fetched = await fetches[index]!;
    delete fetches[index];
    start(index + ahead);
    const report = await storeOne(enabled[index]!, fetched, options);
    reports.push(report);
    options.onSourceDone?.(report);
  }
  return reports;
}

type Fetched = { result: SourceFetchResult } | { error: unknown };

async function fetchOne(config: SourceConfig, options: IngestOptions): Promise<Fetched> {
  try {
    const source = options.createSource(config);
    const state = await options.store.getSourceState(config.id);
    const result = await source.fetch({
      window: options.window,
      http: options.http,
      state,
      log: options.log,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { result };
  } catch (error) {
    return { error };
  }
}

async function storeOne(
  config: SourceConfig,
  fetched: Fetched,
  options: IngestOptions,
): Promise<SourceReport> {
  const { store, log } = options;
  try {
    if ('error' in fetched) throw fetched.error;
    const { result } = fetched;
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
    if (result.notModified) report.notModified = true;
    return report;
  } catch (error) {
    log.warn(`${config.id}: ${errorMessage(error)}`);
    return { id: config.id, status: 'error', items: 0, error: errorMessage(error) };
  }
}
