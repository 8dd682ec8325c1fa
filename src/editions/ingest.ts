// Ingest: every enabled source fetched (a few at a time), each source's items stored in its own transaction.
// One result per source, never one exception for the run: a dead feed is reported and the others go on.
// Each source has an overall deadline; while sources are slow, onWaiting says which and on what. Both wait on the
// timer port, so a test advances time instead of sleeping through it.
import type { SourceConfig } from '../config/config-schema.js';
import { type Timer, timeoutSignal } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { HttpClient, Logger, Source, SourceFetchResult } from '../core/ports.js';
import type { DateWindow, SourceReport } from '../core/types.js';
import { displayUrl, redactUrls } from '../core/urls.js';
import type { Store } from '../store/types.js';

/** A source that has not finished yet, with the requests it is waiting on (URLs shortened and redacted). */
export interface WaitingSource {
  id: string;
  elapsedMs: number;
  requests: string[];
}

export interface IngestOptions {
  sources: SourceConfig[];
  window: DateWindow;
  ports: IngestPorts;
  limits?: IngestLimits;
  signal?: AbortSignal;
  progress?: IngestProgress;
}

/** What ingest stores into, fetches, logs and waits with, and how it makes a source from its config. */
interface IngestPorts {
  store: Pick<Store, 'items' | 'sourceState'>;
  http: HttpClient;
  log: Logger;
  timer: Timer;
  createSource: (config: SourceConfig) => Source;
}

interface IngestLimits {
  /** How many sources fetch at once (default 4). */
  concurrency?: number;
  /** A source's overall deadline when its config sets none (default 60 s). */
  deadlineMs?: number;
}

interface IngestProgress {
  onSourceDone?: (report: SourceReport) => void;
  /** Called every `waitingEveryMs` (default 5 s) while any source is still fetching; see formatWaiting(). */
  onWaiting?: (waiting: WaitingSource[]) => void;
  waitingEveryMs?: number;
}

export const DEFAULT_SOURCE_DEADLINE_MS = 60_000;

export async function ingest(options: IngestOptions): Promise<SourceReport[]> {
  const enabled = options.sources.filter((source) => source.enabled && source.type !== 'manual');
  const running = new Map<string, Running>();
  const stopWatching = watch(running, options);
  try {
    // Fetch a few sources ahead, store in config order: when two sources carry the same item, the first
    // configured one is its primary source whichever answered first, and at most `concurrency` fetched results
    // wait in memory.
    const ahead = Math.max(1, options.limits?.concurrency ?? 4);
    const fetches: Promise<Fetched>[] = [];
    const start = (index: number) => {
      if (index < enabled.length) fetches[index] = fetchOne(enabled[index]!, options, running);
    };
    for (let index = 0; index < ahead; index++) start(index);
    const reports: SourceReport[] = [];
    for (let index = 0; index < enabled.length; index++) {
      const fetched = await fetches[index]!;
      delete fetches[index];
      start(index + ahead);
      const report = await storeOne(enabled[index]!, fetched, options);
      reports.push(report);
      options.progress?.onSourceDone?.(report);
    }
    return reports;
  } finally {
    stopWatching();
  }
}

/** "waiting for api-hf (https://…?date=2026-05-01), 12 s; rss-openai, 8 s" */
export function formatWaiting(waiting: WaitingSource[]): string {
  const parts = waiting.map((source) => {
    const on = source.requests.length ? ` (${source.requests.join(', ')})` : '';
    return `${source.id}${on}, ${Math.round(source.elapsedMs / 1000)} s`;
  });
  return `waiting for ${parts.join('; ')}`;
}

interface Running {
  startedAt: number;
  requests: Map<symbol, string>;
}

/** Calls onWaiting every `waitingEveryMs` on the timer while any source runs; returns what stops it. */
function watch(running: Map<string, Running>, options: IngestOptions): () => void {
  const onWaiting = options.progress?.onWaiting;
  if (!onWaiting) return () => {};
  const { timer } = options.ports;
  const every = options.progress?.waitingEveryMs ?? 5000;
  const tick = () => {
    cancel = timer.after(every, tick);
    if (!running.size) return;
    const now = timer.now();
    onWaiting(
      [...running].map(([id, source]) => ({
        id,
        elapsedMs: now - source.startedAt,
        requests: [...new Set(source.requests.values())],
      })),
    );
  };
  let cancel = timer.after(every, tick);
  return () => cancel();
}

/** The client a source uses, noting which requests are in flight so a waiting build can say what it waits on. */
function tracked(http: HttpClient, requests: Map<symbol, string>): HttpClient {
  return {
    async request(request) {
      const token = Symbol(request.url);
      requests.set(token, displayUrl(request.url));
      try {
        return await http.request(request);
      } finally {
        requests.delete(token);
      }
    },
  };
}

type Fetched = { result: SourceFetchResult } | { error: unknown };

async function fetchOne(
  config: SourceConfig,
  options: IngestOptions,
  running: Map<string, Running>,
): Promise<Fetched> {
  const deadlineMs = config.deadlineMs ?? options.limits?.deadlineMs ?? DEFAULT_SOURCE_DEADLINE_MS;
  const { timer } = options.ports;
  // The deadline aborts with a "TimeoutError" reason, which sources tell apart from a cancellation.
  const deadline = timeoutSignal(timer, deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const entry: Running = { startedAt: timer.now(), requests: new Map() };
  running.set(config.id, entry);
  let stopOverdue = () => {};
  try {
    const source = options.ports.createSource(config);
    const state = await options.ports.store.sourceState.get(config.id);
    const fetching = source.fetch({
      window: options.window,
      http: tracked(options.ports.http, entry.requests),
      state,
      log: options.ports.log,
      signal,
      ...(config.dayConcurrency ? { dayConcurrency: config.dayConcurrency } : {}),
    });
    // A source that ignores its signal still ends: shortly after the deadline, ingest stops waiting for it.
    const overdue = new Promise<'overdue'>((resolve) => {
      stopOverdue = timer.after(deadlineMs + Math.min(1000, deadlineMs), () => resolve('overdue'));
    });
    const result = await Promise.race([fetching, overdue]);
    if (result === 'overdue') return { error: new Error(pastDeadline(deadlineMs)) };
    if (deadline.signal.aborted && !options.signal?.aborted && result.error) {
      return { result: { ...result, error: `${pastDeadline(deadlineMs)}: ${result.error}` } };
    }
    return { result };
  } catch (error) {
    return { error };
  } finally {
    deadline.cancel();
    stopOverdue();
    running.delete(config.id);
  }
}

function pastDeadline(deadlineMs: number): string {
  return `did not finish within its ${formatSeconds(deadlineMs)} deadline (raise deadlineMs in the source's config if it is meant to be that slow)`;
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

async function storeOne(
  config: SourceConfig,
  fetched: Fetched,
  options: IngestOptions,
): Promise<SourceReport> {
  const { store, log } = options.ports;
  try {
    if ('error' in fetched) throw fetched.error;
    const { result } = fetched;
    // Items first, validators after: a crash in between only costs a re-fetch, never a lost item.
    if (result.items.length) await store.items.upsert(result.items);
    if (result.state) await store.sourceState.set(config.id, result.state);
    const report: SourceReport = {
      id: config.id,
      status: result.error ? 'error' : 'ok',
      items: result.items.length,
    };
    // Messages may quote URLs a source was given: never repeat credentials, never print 100 kB of query.
    if (result.error) report.error = redactUrls(result.error);
    if (result.warnings.length) report.warnings = result.warnings.map(redactUrls);
    if (result.notModified) report.notModified = true;
    return report;
  } catch (error) {
    const message = redactUrls(errorMessage(error));
    log.warn(`${config.id}: ${message}`);
    return { id: config.id, status: 'error', items: 0, error: message };
  }
}
