// What a shared rate limit costs a request: the token bucket in PostgreSQL (one upsert per check, as several
// `digest serve` instances share it) against the same limit in memory. Figures: p50/p99 of one check, alone and 16
// in flight at once, and of a failed sign-in's two checks and a successful one's checks and refunds. Needs a
// PostgreSQL: BENCH_DATABASE_URL, else one started from the installed binaries (as the tests do).
import { openStore } from '../src/store/open-store.js';
import { postgresBinDir, startPostgresCluster } from '../test/support/postgres.js';

const CHECKS = 3_000;
const KEYS = 500;

function percentile(sorted: number[], p: number): number {
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 1000) / 1000;
}

async function timed(
  runs: number,
  inFlight: number,
  once: (n: number) => Promise<unknown>,
): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < runs) {
      const n = next++;
      const started = performance.now();
      await once(n);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return times.sort((a, b) => a - b);
}

export async function benchRateLimits(): Promise<Record<string, number | string>> {
  const given = process.env.BENCH_DATABASE_URL;
  const binDir = given ? null : postgresBinDir();
  if (!given && !binDir)
    throw new Error('no PostgreSQL: set BENCH_DATABASE_URL or install the server binaries');
  const cluster = given ? null : await startPostgresCluster(binDir!);
  const store = await openStore({ databaseUrl: given ?? cluster!.url });
  try {
    const limits = store.rateLimits(Date.now);
    const api = limits.limiter('api', { capacity: 120, refillMs: 500 });
    const byIp = limits.limiter('sign-in-ip', { capacity: 10, refillMs: 60_000 });
    const byPair = limits.limiter('sign-in-pair', { capacity: 5, refillMs: 300_000 });
    const key = (n: number) => `198.51.100.${n % KEYS}`;
    await timed(500, 1, (n) => api.take(key(n)));
    const alone = await timed(CHECKS, 1, (n) => api.take(key(n)));
    // The floor: a round trip that does nothing, on the same pool (a loaded machine's p99 is mostly scheduling).
    const roundTrip = await timed(CHECKS, 1, () => store.siteGenerations.current());
    const together = await timed(CHECKS, 16, (n) => api.take(key(n)));
    const failedSignIn = await timed(CHECKS, 1, async (n) => {
      if ((await byIp.take(key(n))).allowed) await byPair.take(`${key(n)}\ned@example.org`);
    });
    const goodSignIn = await timed(CHECKS, 1, async (n) => {
      await byIp.take(`good-${key(n)}`);
      await byPair.take(`good-${key(n)}\ned@example.org`);
      await byIp.refund(`good-${key(n)}`);
      await byPair.refund(`good-${key(n)}\ned@example.org`);
    });
    return {
      'one check p50 ms': percentile(alone, 0.5),
      'one check p99 ms': percentile(alone, 0.99),
      'a one-row read p50 ms': percentile(roundTrip, 0.5),
      'a one-row read p99 ms': percentile(roundTrip, 0.99),
      'one check p99 ms, 16 in flight': percentile(together, 0.99),
      'failed sign-in checks p99 ms': percentile(failedSignIn, 0.99),
      'successful sign-in checks and refunds p99 ms': percentile(goodSignIn, 0.99),
    };
  } finally {
    await store.close();
    await cluster?.stop();
  }
}
