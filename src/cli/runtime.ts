// Opens what commands share — config, store, HTTP client, logger — from flags and environment.
import { resolve } from 'node:path';
import { type Config, loadConfig } from '../config/index.js';
import { isIsoDay, latestMonday } from '../core/dates.js';
import { ConfigError } from '../core/errors.js';
import type { HttpClient, Logger } from '../core/ports.js';
import { createHttpClient } from '../net/http-client.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import type { CliContext } from './context.js';
import { createCliLogger } from './logger.js';

export interface CommonOptions {
  config?: string;
  dataDir?: string;
  verbose?: boolean;
}

export interface Runtime {
  config: Config;
  configFile: string | null;
  store: Store;
  http: HttpClient;
  log: Logger;
  /** Where the store lives, for messages. */
  storeLocation: string;
  close(): Promise<void>;
}

export function resolveDataDir(options: CommonOptions, context: CliContext): string {
  return resolve(context.cwd, options.dataDir ?? context.env.DIGEST_DATA_DIR ?? 'data');
}

export async function openRuntime(
  options: CommonOptions,
  context: CliContext,
  overrides: { config?: Config } = {},
): Promise<Runtime> {
  const log = createCliLogger(context.stderr, options.verbose);
  const loaded = overrides.config
    ? { config: overrides.config, file: null }
    : await loadConfig({ ...(options.config ? { file: options.config } : {}), cwd: context.cwd });
  const config = loaded.config;
  const databaseUrl = context.env.DATABASE_URL;
  const dataDir = resolveDataDir(options, context);
  const store = await openStore(databaseUrl ? { databaseUrl, log } : { dataDir, log });
  const http = createHttpClient({
    timeoutMs: config.http.timeoutMs,
    maxBytes: config.http.maxBytes,
    retries: config.http.retries,
    allowLoopback: config.http.allowLoopback,
    log,
    ...(config.http.userAgent ? { userAgent: config.http.userAgent } : {}),
  });
  return {
    config,
    configFile: loaded.file,
    store,
    http,
    log,
    storeLocation: databaseUrl ? 'PostgreSQL (DATABASE_URL)' : dataDir,
    close: () => store.close(),
  };
}

/** `--week` value: any YYYY-MM-DD (the window is the 7 days ending on it); default the latest Monday. */
export function resolveWeek(week: string | undefined, now: Date = new Date()): string {
  if (week === undefined) return latestMonday(now);
  if (!isIsoDay(week)) {
    throw new ConfigError(`--week must be a date like 2026-05-04 (got "${week}").`, [
      { path: '--week', message: 'not a YYYY-MM-DD date' },
    ]);
  }
  return week;
}

/** Runs `fn` with an open runtime and always closes the store (PGlite must be closed). */
export async function withRuntime<T>(
  options: CommonOptions,
  context: CliContext,
  fn: (runtime: Runtime) => Promise<T>,
  overrides: { config?: Config } = {},
): Promise<T> {
  const runtime = await openRuntime(options, context, overrides);
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}
