// A loopback SMTP server that accepts every mail, keeps no body and counts the mails per recipient, and a runner
// for `digest …` that records its wall time and peak RSS (shared by the send and scale benchmarks).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'digest.js');
export const BENCH_SECRET = 'a-bench-secret-of-at-least-32-bytes-long!';

export interface Counter {
  counts: Map<string, number>;
  total: number;
  onMail?: (() => void) | undefined;
}

export function newCounter(): Counter {
  return { counts: new Map(), total: 0 };
}

export async function startSink(counter: Counter): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        for (const { address } of session.envelope.rcptTo) {
          counter.counts.set(address, (counter.counts.get(address) ?? 0) + 1);
          counter.total++;
        }
        counter.onMail?.();
        callback(null, 'Ok: discarded');
      });
    },
  });
  // A killed client resets its connection: that is the test, not a server failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface DigestRun {
  code: number | null;
  signal: string | null;
  wallS: number;
  peakMb: number;
  /** CPU time (user + system) the process used, s: on a shared machine wall time also counts the waiting. */
  cpuS: number;
  stdout: string;
  stderr: string;
}

export interface DigestRunOptions {
  onChild?: (child: ChildProcess) => void;
  /** Extra environment (DATABASE_URL for PostgreSQL). */
  env?: NodeJS.ProcessEnv;
  /** Called with each RSS sample (MB) of the process, every 25 ms. */
  onRss?: (mb: number) => void;
}

/** Runs `digest …` to its end (or until `onChild` kills it); peak RSS from /proc (VmHWM), polled. */
export async function runDigest(
  cwd: string,
  args: string[],
  options: DigestRunOptions = {},
): Promise<DigestRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args, '--data-dir', 'data'], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DIGEST_SECRET: BENCH_SECRET, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onChild?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  let peakKb = 0;
  let cpuTicks = 0;
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const match = /VmHWM:\s+(\d+)/.exec(status);
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
      const rss = /VmRSS:\s+(\d+)/.exec(status);
      if (rss) options.onRss?.(Number(rss[1]) / 1024);
      // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      cpuTicks = Math.max(cpuTicks, Number(stat[11] ?? 0) + Number(stat[12] ?? 0));
    } catch {}
  }, 25);
  const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('close', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
  );
  clearInterval(poll);
  if (code !== 0 && code !== 3 && signal !== 'SIGKILL')
    throw new Error(`digest ${args[0]} failed:\n${stderr}`);
  const wallS = (performance.now() - started) / 1000;
  // Clock ticks are 1/100 s on Linux.
  return { code, signal, wallS, peakMb: peakKb / 1024, cpuS: cpuTicks / 100, stdout, stderr };
}
