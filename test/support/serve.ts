// Starts the real `digest serve` process (bin/digest.js, so dist/ must be built: npm test does it) on a free loopback
// port and resolves once it prints the address it listens on; a server that exits first rejects with its stderr.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'digest.js');

export const TEST_SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
/** The token /metrics and /operator/stats ask for on the public listener of every test server. */
export const TEST_METRICS_TOKEN = 'a-test-metrics-token-0123456789';
/** The header that carries it. */
export const OPERATOR_HEADERS = { authorization: `Bearer ${TEST_METRICS_TOKEN}` };

export interface Served {
  child: ChildProcess;
  /** The address it listens on, from its first stdout line. */
  url: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServeOptions {
  cwd: string;
  site: string;
  dataDir: string;
  /** Default 0: a free port. */
  port?: number;
  /** DIGEST_SECRET; default TEST_SECRET. */
  secret?: string;
  /** DATABASE_URL: the store on this PostgreSQL database instead of PGlite in dataDir (default none). */
  databaseUrl?: string;
  /** The flag naming the site folder: `--out`, or `--site`, its former name (default --out). */
  siteFlag?: '--out' | '--site';
  /** More environment for the process (NODE_V8_COVERAGE, to see which modules it loaded). */
  env?: Record<string, string>;
}

export function startServe(options: ServeOptions): Promise<Served> {
  // A developer's own DATABASE_URL or PORT must never reach a test server.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DIGEST_SECRET: options.secret ?? TEST_SECRET,
    DIGEST_METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.PORT;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--port',
      String(options.port ?? 0),
      options.siteFlag ?? '--out',
      options.site,
      '--data-dir',
      options.dataDir,
    ],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      if (lines.length > 1) resolve({ child, url: lines[0]!, stderr: () => stderr, exited });
    });
    void exited.then(({ code }) =>
      reject(new Error(`digest serve exited (${code}) before listening:\n${stderr}`)),
    );
  });
}
