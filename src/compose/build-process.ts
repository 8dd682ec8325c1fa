// The weekly build of `digest serve` in its own process (issue 30): reading third-party pages, writing and rendering
// never run on the event loop that answers /healthz, the site, the API and the subscribe form. The process is the
// CLI's hidden `digest scheduled-build` with a heap limit (schedule.buildMemoryMb) and a deadline
// (schedule.buildTimeoutSeconds): past either it is stopped. It reaches the server's database through the shared
// PGlite socket (or DATABASE_URL); a process stopped mid-transaction has that transaction rolled back (share-pglite.ts
// and PostgreSQL both do on a dropped connection), so the store keeps what it had.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BuildError } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { ScheduledEditionOutcome } from '../editions/index.js';

const BIN = fileURLToPath(new URL('../../bin/digest.js', import.meta.url));

export interface BuildProcessOptions {
  week: string;
  siteDir: string;
  /** The flags `digest serve` was started with, so the build reads the same config and database. */
  configFile: string | null;
  dataDir: string | null;
  env: NodeJS.ProcessEnv;
  limits: { timeoutSeconds: number; memoryMb: number };
  /** Each line the build logs (its progress and warnings), for the server's log. */
  log: Logger;
  signal?: AbortSignal;
}

/** Runs the scheduled build of one week in a child process; rejects with a BuildError when it is stopped or fails. */
export function runBuildProcess(options: BuildProcessOptions): Promise<ScheduledEditionOutcome> {
  const { limits } = options;
  const args = [
    `--max-old-space-size=${limits.memoryMb}`,
    BIN,
    'scheduled-build',
    '--week',
    options.week,
    '--out',
    options.siteDir,
    ...(options.configFile ? ['--config', options.configFile] : []),
    ...(options.dataDir ? ['--data-dir', options.dataDir] : []),
  ];
  const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let tail = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout = (stdout + chunk).slice(-64 * 1024);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4096);
    for (const line of chunk.split('\n')) if (line.trim()) options.log.info(`build: ${line.trim()}`);
  });
  let stopped: string | null = null;
  const stop = (why: string) => {
    stopped ??= why;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(
    () => stop(`it ran past its deadline of ${limits.timeoutSeconds} s (schedule.buildTimeoutSeconds)`),
    limits.timeoutSeconds * 1000,
  );
  const onAbort = () => stop('the server is stopping');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', (error) =>
      reject(new BuildError(`the build process did not start: ${error.message}`)),
    );
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const outcome = code === 0 ? outcomeOf(stdout) : null;
      if (outcome) return resolve(outcome);
      reject(
        new BuildError(
          `the build of ${options.week} was stopped: ${stopped ?? whyEnded({ code, signal, tail, limits })}`,
        ),
      );
    });
  });
}

function outcomeOf(stdout: string): ScheduledEditionOutcome | null {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    const outcome = JSON.parse(last) as ScheduledEditionOutcome;
    return typeof outcome?.status === 'string' ? outcome : null;
  } catch {
    return null;
  }
}

function whyEnded({
  code,
  signal,
  tail,
  limits,
}: {
  code: number | null;
  signal: NodeJS.Signals | null;
  tail: string;
  limits: BuildProcessOptions['limits'];
}): string {
  if (/heap out of memory|Reached heap limit/i.test(tail))
    return `it needed more than its ${limits.memoryMb} MB (schedule.buildMemoryMb)`;
  const last = tail.trim().split('\n').slice(-2).join(' | ');
  return `it ended with ${signal ?? `exit code ${code}`}${last ? `: ${last}` : ''}`;
}
