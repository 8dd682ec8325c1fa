// `digest serve` on loopback against a plain static server on the same edition page (autocannon, 5 s each),
// and the idle RSS of the real serve process on the embedded database (PGlite).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishSite } from '../src/publish/publish-site.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { weeklyEditions } from '../test/publish/_editions.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'digest.js');
const AUTOCANNON = join(
  dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);
const DURATION_S = 5;
const CONNECTIONS = 10;

function startChild(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
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

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

function autocannon(url: string, headers: Record<string, string> = {}): Promise<Load> {
  const args = [AUTOCANNON, '-j', '-d', String(DURATION_S), '-c', String(CONNECTIONS)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
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

export async function benchServe(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-serve-'));
  const site = join(dir, 'site');
  await publishSite({
    fs: nodeFileSystem,
    outDir: site,
    editions: weeklyEditions(3),
    baseUrl: 'https://digest.example.org/',
  });
  const page = join(site, '2026-05-04', 'index.html');
  const serve = startChild([BIN, 'serve', '--port', '0', '--site', site, '--data-dir', join(dir, 'data')], {
    cwd: dir,
    env: { DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!', DATABASE_URL: '', PORT: '' },
  });
  const plain = startChild(['--import', 'tsx', join(here, '_static-server.ts'), page], {
    cwd: join(here, '..'),
  });
  try {
    const [serveUrl, plainUrl] = await Promise.all([serve.url, plain.url]);
    const edition = `${serveUrl}2026-05-04/`;
    // Idle: started, one request served (the file is read and compressed once), nothing else going on.
    await fetch(edition, { headers: { 'accept-encoding': 'br' } }).then((response) => response.arrayBuffer());
    const idleRss = rssMb(serve.child.pid!);
    const baseline = await autocannon(plainUrl);
    const identity = await autocannon(edition);
    const brotli = await autocannon(edition, { 'accept-encoding': 'br, gzip' });
    const loadedRss = rssMb(serve.child.pid!);
    return {
      'static req/s (node:http, in memory)': baseline.requestsPerSecond,
      'serve req/s (identity)': identity.requestsPerSecond,
      'serve req/s (br)': brotli.requestsPerSecond,
      'serve / static req/s': Number((identity.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)),
      'serve p99 ms (identity)': identity.p99Ms,
      'static p99 ms': baseline.p99Ms,
      'non-2xx or errors': baseline.non2xx + identity.non2xx + brotli.non2xx,
      'serve idle RSS MB': idleRss,
      'serve RSS MB after load': loadedRss,
      'edition page KB': Number((readFileSync(page).byteLength / 1024).toFixed(1)),
    };
  } finally {
    await Promise.all([stop(serve.child), stop(plain.child)]);
    await rm(dir, { recursive: true, force: true });
  }
}
