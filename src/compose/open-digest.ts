// Wires the real adapters once: config file, store (PGlite or PostgreSQL), the guarded HTTP client, the disk.
import { resolve } from 'node:path';
import { type Config, ignoredConfigNotice, loadConfig } from '../config/index.js';
import { DEFAULT_DATA_DIR, resolveDataDir } from '../config/inputs.js';
import type { Logger } from '../core/ports.js';
import { systemClock } from '../deps.js';
import { createHttpClient, offlineHttpClient } from '../net/http-client.js';
import { nodeFileSystem } from '../publish/write-site.js';
import { openStore } from '../store/open-store.js';
import { createDigest, type Digest } from './create-digest.js';

export interface OpenDigestOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** `--config FILE`; default digest.config.ts/.json in cwd. */
  configFile?: string;
  /** A config already made (the demo's); skips loading a file. */
  config?: Config;
  /** `--data-dir`; default DIGEST_DATA_DIR, then ./data. Ignored when DATABASE_URL is set. */
  dataDir?: string;
  signal?: AbortSignal;
  /** `--offline`: the HTTP client refuses every request (no network at all). */
  offline?: boolean;
}

export interface OpenDigest extends Digest {
  config: Config;
  configFile: string | null;
  /** The log every use case writes to (the CLI's, on stderr). */
  log: Logger;
  /** Where the store lives, for messages. */
  storeLocation: string;
  close(): Promise<void>;
}

export async function openDigest(options: OpenDigestOptions): Promise<OpenDigest> {
  const { log, env } = options;
  const loaded = options.config
    ? { config: options.config, file: null, ignored: [] }
    : await loadConfig({
        ...(options.configFile ? { file: options.configFile } : {}),
        cwd: options.cwd,
        env,
      });
  const twoFiles = ignoredConfigNotice(loaded);
  if (twoFiles) log.warn(twoFiles);
  const config = loaded.config;
  const databaseUrl = env.DATABASE_URL;
  const dataDir = resolveDataDir(options);
  // Said whenever it is not ./data, so a command never reads or writes a folder the user did not expect.
  if (!databaseUrl && dataDir !== resolve(options.cwd, DEFAULT_DATA_DIR)) log.info(`Data folder: ${dataDir}`);
  const optimizeWasm = env.DIGEST_WASM_OPTIMIZE === '1';
  const store = await openStore(databaseUrl ? { databaseUrl, log } : { dataDir, log, optimizeWasm });
  const http = options.offline
    ? offlineHttpClient
    : createHttpClient({
        timeoutMs: config.http.timeoutMs,
        maxBytes: config.http.maxBytes,
        retries: config.http.retries,
        allowLoopback: config.http.allowLoopback,
        log,
        ...(config.http.userAgent ? { userAgent: config.http.userAgent } : {}),
      });
  const digest = createDigest({
    config,
    store,
    http,
    log,
    env,
    fs: nodeFileSystem,
    clock: systemClock,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    ...digest,
    config,
    configFile: loaded.file,
    log,
    // The start-up hint names the config file when subscribing is off.
    service: (service) =>
      digest.service({ configFile: loaded.file, dataDir: databaseUrl ? null : dataDir, ...service }),
    storeLocation: databaseUrl ? 'PostgreSQL (DATABASE_URL)' : dataDir,
    close: () => store.close(),
  };
}

/** Runs `fn` with an open digest and always closes the store (PGlite must be closed; the lock released). */
export async function withDigest<T>(
  options: OpenDigestOptions,
  fn: (digest: OpenDigest) => Promise<T>,
): Promise<T> {
  const digest = await openDigest(options);
  try {
    return await fn(digest);
  } finally {
    await digest.close();
  }
}
