// `digest serve` on loopback against a plain static server on the same edition page (autocannon, 5 s each),
// and the idle RSS of the real serve process on the embedded database (PGlite).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishSite } from '../src/publish/publish-site.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { weeklyEditions } from '../test/support/weekly-editions.js';
import { autocannon, BIN, STATIC_SERVER, startChild, stop } from './_http.js';

const here = dirname(fileURLToPath(import.meta.url));
const LOAD = { seconds: 5, connections: 10 };

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
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
  const serve = startChild([BIN, 'serve', '--port', '0', '--out', site, '--data-dir', join(dir, 'data')], {
    cwd: dir,
    env: { DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!', DATABASE_URL: '', PORT: '' },
  });
  const plain = startChild(['--import', 'tsx', STATIC_SERVER, page], {
    cwd: join(here, '..'),
  });
  try {
    const [serveUrl, plainUrl] = await Promise.all([serve.url, plain.url]);
    const edition = `${serveUrl}2026-05-04/`;
    // Idle: started, one request served (the file is read and compressed once), nothing else going on.
    await fetch(edition, { headers: { 'accept-encoding': 'br' } }).then((response) => response.arrayBuffer());
    const idleRss = rssMb(serve.child.pid!);
    const baseline = await autocannon(plainUrl, LOAD);
    const identity = await autocannon(edition, LOAD);
    const brotli = await autocannon(edition, { ...LOAD, headers: { 'accept-encoding': 'br, gzip' } });
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
