// POST /subscribe on the real `digest serve` (embedded PGlite) under 100 concurrent clients, 5 s per run: as
// deployed (each client its own address and IP, the per-IP limit on), and a flood where every request is a new
// address from a new IP (each stored and mailed to a loopback SMTP server); a static file on the same server
// for scale.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { publishSite } from '../src/publish/publish-site.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { weeklyEditions } from '../test/support/weekly-editions.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'digest.js');
const DURATION_S = 5;
const CONNECTIONS = 100;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function benchSubscribe(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-subscribe-'));
  let mails = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        mails += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const base = 'https://digest.example.org/';
  await publishSite({
    fs: nodeFileSystem,
    outDir: join(dir, 'site'),
    editions: weeklyEditions(1),
    baseUrl: base,
    subscribeForm: true,
  });
  await writeFile(
    join(dir, 'digest.config.json'),
    JSON.stringify({
      server: { baseUrl: base, trustProxy: true },
      publish: {
        baseUrl: base,
        email: {
          smtp: {
            host: '127.0.0.1',
            port: smtpPort,
            requireTls: false,
          },
        },
      },
    }),
  );
  const serve = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--out', join(dir, 'site'), '--data-dir', join(dir, 'data')],
    {
      cwd: dir,
      env: {
        ...process.env,
        DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!',
        DATABASE_URL: '',
        PORT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  serve.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const firstLine = (chunk: Buffer) => {
        stdout += chunk.toString();
        if (!stdout.includes('\n')) return;
        // Then the request log is only drained: kept, it would grow and be searched on every chunk, on the
        // thread that makes the load and times the answers.
        serve.stdout!.off('data', firstLine).on('data', () => {});
        resolve(stdout.split('\n')[0]!);
      };
      serve.stdout!.on('data', firstLine);
      serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    let sequence = 0;
    const request = (defaults: Record<string, unknown>) => {
      sequence += 1;
      return {
        ...defaults,
        method: 'POST',
        path: '/subscribe',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          origin: 'https://digest.example.org',
          'x-forwarded-for': `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`,
        },
        body: JSON.stringify({ email: `reader${sequence}@example.org` }),
      };
    };
    // Warm-up: the first request loads the use cases and opens the SMTP transport.
    await autocannon({ url, connections: 1, amount: 20, requests: [{ setupRequest: request }] });
    // The same server answering a small static file to the same 100 clients: what this machine gives right now.
    const baseline = await autocannon({
      url: `${url}favicon.svg`,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    // As deployed: 100 clients, each its own address and network address, the per-IP limit (10 a minute) on.
    // (autocannon's per-connection context is reset after every request, so clients take turns round-robin.)
    let turn = 0;
    const perClient = (defaults: Record<string, unknown>) => {
      const client = (turn++ % CONNECTIONS) + 1;
      return {
        ...defaults,
        method: 'POST',
        path: '/subscribe',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          origin: 'https://digest.example.org',
          'x-forwarded-for': `172.16.0.${client}`,
        },
        body: JSON.stringify({ email: `client${client}@example.org` }),
      };
    };
    const limited = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      requests: [{ setupRequest: perClient }],
    });
    const mailsBefore = mails;
    // Stress: every request a new address from a new network address, so no limit applies and each one is stored
    // and mailed (PGlite writes on the server's one thread).
    const flood = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      requests: [{ setupRequest: request }],
    });
    return {
      'subscribe p99 ms (100 clients)': limited.latency.p99,
      'subscribe p50 ms (100 clients)': limited.latency.p50,
      'subscribe req/s (100 clients)': Math.round(limited.requests.average),
      'status codes (100 clients)': JSON.stringify(limited.statusCodeStats),
      'static file p99 ms (same 100 clients)': baseline.latency.p99,
      'static file req/s': Math.round(baseline.requests.average),
      'flood of new addresses p99 ms': flood.latency.p99,
      'flood of new addresses p50 ms': flood.latency.p50,
      'flood of new addresses req/s': Math.round(flood.requests.average),
      'flood non-2xx or errors': flood.non2xx + flood.errors + flood.timeouts,
      'status codes (flood)': JSON.stringify(flood.statusCodeStats),
      'errors (100 clients)': limited.errors + limited.timeouts,
      'confirmation mails received during the flood': mails - mailsBefore,
    };
  } finally {
    await stop(serve);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  }
}
