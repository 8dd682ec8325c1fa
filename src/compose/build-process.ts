// The builds of `digest serve` in their own process: the weekly build and the desk's actions that build or
// regenerate. Reading third-party pages, writing and rendering never run on the event loop that answers /healthz,
// the site, the API and the subscribe form. The process is a hidden CLI command (`digest scheduled-build`,
// `digest desk-job`) with a memory limit (schedule.buildMemoryMb: V8's heap limit, and its resident memory watched
// beside, _memory-watch.ts) and a deadline (schedule.buildTimeoutSeconds): past either it is stopped. It reaches the
// server's database through the shared PGlite socket (or DATABASE_URL); a process stopped mid-transaction has that
// transaction rolled back (share-pglite.ts and PostgreSQL both do on a dropped connection), so the store keeps what it
// had.
import { fileURLToPath } from 'node:url';
import { BuildError, BuildStoppedError, type BuildStopReason } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import type { DeskJob, DeskJobOutcome } from '../desk/index.js';
import type { ScheduledEditionOutcome } from '../editions/index.js';
import { watchMemory } from './_memory-watch.js';

const BIN = fileURLToPath(new URL('../../bin/digest.js', import.meta.url));

/** What every build process of one `digest serve` shares: where its config and database are, its limits, its log. */
export interface BuildProcessSettings {
  /** The flags `digest serve` was started with, so the build reads the same config and database. */
  configFile: string | null;
  dataDir: string | null;
  env: NodeJS.ProcessEnv;
  limits: { timeoutSeconds: number; memoryMb: number };
  /** Each line the build logs (its progress and warnings), for the server's log. */
  log: Logger;
  signal?: AbortSignal | undefined;
}

/** Runs the scheduled build of one week in a child process; rejects with a BuildError when it is stopped or fails. */
export async function runBuildProcess(
  settings: BuildProcessSettings,
  input: { week: string; siteDir: string },
): Promise<ScheduledEditionOutcome> {
  const args = ['scheduled-build', '--week', input.week, '--out', input.siteDir];
  const outcome = (await runDigestProcess(settings, {
    args,
    what: `the build of ${input.week}`,
    prefix: 'build',
  })) as ScheduledEditionOutcome | undefined;
  if (typeof outcome?.status !== 'string')
    throw new BuildError(`the build of ${input.week} printed no outcome`);
  return outcome;
}

/** Runs one desk action that builds or regenerates (desk/desk-jobs.ts) in a child process, with the same limits. */
export async function runDeskJobProcess(
  settings: BuildProcessSettings,
  job: DeskJob,
): Promise<DeskJobOutcome> {
  const what = `the desk's ${job.kind} of ${job.context.week}`;
  const outcome = (await runDigestProcess(settings, {
    args: ['desk-job', '--job', JSON.stringify(job)],
    what,
    prefix: 'desk build',
  })) as DeskJobOutcome | undefined;
  if (typeof outcome?.ok !== 'boolean') throw new BuildError(`${what} printed no outcome`);
  return outcome;
}

/** One hidden digest command in its own process: the JSON of its last stdout line, or a BuildStoppedError. */
async function runDigestProcess(
  settings: BuildProcessSettings,
  run: { args: string[]; what: string; prefix: string },
): Promise<unknown> {
  const { spawn } = await import('node:child_process');
  const { limits } = settings;
  const args = [
    `--max-old-space-size=${limits.memoryMb}`,
    BIN,
    ...run.args,
    ...(settings.configFile ? ['--config', settings.configFile] : []),
    ...(settings.dataDir ? ['--data-dir', settings.dataDir] : []),
  ];
  const child = spawn(process.execPath, args, { env: settings.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let tail = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout = (stdout + chunk).slice(-64 * 1024);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4096);
    for (const line of chunk.split('\n')) if (line.trim()) settings.log.info(`${run.prefix}: ${line.trim()}`);
  });
  let stopped: { reason: BuildStopReason; why: string } | null = null;
  const stop = (reason: BuildStopReason, why: string) => {
    stopped ??= { reason, why };
    child.kill('SIGKILL');
  };
  const memoryStop = () => stop('memory', pastMemory(limits));
  // The heap limit above is V8's; the watch also counts what the runtime keeps outside the heap.
  const unwatch = child.pid === undefined ? () => {} : watchMemory(child.pid, limits.memoryMb, memoryStop);
  const timer = setTimeout(
    () =>
      stop(
        'deadline',
        `it ran past its deadline of ${limits.timeoutSeconds} s (schedule.buildTimeoutSeconds)`,
      ),
    limits.timeoutSeconds * 1000,
  );
  const onAbort = () => stop('stopping', 'the server is stopping');
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', (error) =>
      reject(new BuildStoppedError(`${run.what} did not start: ${error.message}`, 'crash')),
    );
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      unwatch();
      settings.signal?.removeEventListener('abort', onAbort);
      const outcome = code === 0 ? lastJsonLine(stdout) : undefined;
      if (outcome !== undefined) return resolve(outcome);
      const ended = stopped ?? whyEnded({ code, signal, tail, limits });
      reject(new BuildStoppedError(`${run.what} was stopped: ${ended.why}`, ended.reason));
    });
  });
}

function lastJsonLine(stdout: string): unknown {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as unknown;
  } catch {
    return undefined;
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
  limits: BuildProcessSettings['limits'];
}): { reason: BuildStopReason; why: string } {
  if (/heap out of memory|Reached heap limit/i.test(tail))
    return { reason: 'memory', why: pastMemory(limits) };
  const last = tail.trim().split('\n').slice(-2).join(' | ');
  return { reason: 'crash', why: `it ended with ${signal ?? `exit code ${code}`}${last ? `: ${last}` : ''}` };
}

function pastMemory(limits: BuildProcessSettings['limits']): string {
  return `it needed more than its ${limits.memoryMb} MB (schedule.buildMemoryMb)`;
}
