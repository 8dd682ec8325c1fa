// The real `digest serve` (or any server script) as a child process, and autocannon against it: one way for every
// HTTP benchmark (serve, search).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = join(here, '..', 'bin', 'digest.js');
export const STATIC_SERVER = join(here, '_static-server.ts');
const OPEN_LOOP = join(here, '_open-loop.mjs');
export const REDIRECT_FLOOR = join(here, '_redirect-floor.mjs');
const AUTOCANNON = join(
  dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

/** Starts `node args…`; `url` resolves with the first line it prints (the address it listens on). */
export function startChild(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  // Request logs are drained so the pipe never blocks the server.
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  return { child, url };
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** autocannon in a process of its own (so the client does not share a thread with anything measured). */
export function autocannon(
  url: string,
  options: {
    seconds: number;
    connections: number;
    headers?: Record<string, string>;
    /** Requests per second of all connections together (autocannon -R); unset: each sends as fast as answered. */
    overallRate?: number;
  },
): Promise<Load> {
  const args = [AUTOCANNON, '-j', '-d', String(options.seconds), '-c', String(options.connections)];
  if (options.overallRate) args.push('-R', String(options.overallRate));
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const result = JSON.parse(out) as {
        requests: { average: number };
        latency: { p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        requestsPerSecond: Math.round(result.requests.average),
        p99Ms: result.latency.p99,
        non2xx: result.non2xx + result.errors,
      });
    });
  });
}

export interface OpenLoadResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  errors: number;
  unanswered: number;
  generatorLateMaxMs: number;
  /** When the slowest answer was scheduled, in seconds into the measured part. */
  worstAtS: number;
}

/**
 * The open-loop generator (_open-loop.mjs) in a process of its own: `clients` keep-alive clients, each from its own
 * X-Forwarded-For address, each asking for `paths[i % paths.length]` every `intervalMs` on its own phase; latency
 * from each request's scheduled time.
 */
export function openLoad(
  base: string,
  options: {
    /** The paths, or a file of them one a line (`pathsFile`) when they are too many for an argument. */
    paths?: string[];
    pathsFile?: string;
    /** Each client asks for the next of the paths in turn, not always its own one. */
    rotate?: boolean;
    clients: number;
    intervalMs: number;
    seconds: number;
    warmSeconds?: number;
  },
): Promise<OpenLoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OPEN_LOOP, JSON.stringify({ base, ...options })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`open-loop generator exited ${code}: ${err}`));
      resolve(JSON.parse(out) as OpenLoadResult);
    });
  });
}
