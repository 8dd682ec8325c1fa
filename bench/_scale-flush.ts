// A flush at a list's size: 100,000 pending clicks in per-reader mode (one reader row each, 100,000 readers) and
// their counts, written by the counter as `digest serve` makes it, while /r/ answers 1,000 clicks a second: the real
// route and use case (token check, revision cache, its own counter writing its clicks every second) on a socket in
// this process, driven open-loop from another (bench/_open-loop.mjs). The 100,000 are recorded at once first — more
// than serve ever holds (it writes past 20,000 keys), so this is the largest write one burst can ask — and the
// figures are the flush's wall time (every count and reader row durable), the longest the event loop was held
// meanwhile, and /r/ latency of the requests scheduled during it; then the same for the fold that follows, which
// moves the reader rows into the reader table. On PGlite the database runs on this thread; on PostgreSQL (when
// installed) it does not.
import { parseConfig } from '../src/config/index.js';
import { systemClock, systemTimer } from '../src/core/clock.js';
import { silentLogger } from '../src/core/ports.js';
import { createDigestMetrics, createServerApp } from '../src/server/index.js';
import { startServer } from '../src/server/start-server.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/types.js';
import { createClickCounter } from '../src/subscribers/click-counter.js';
import { digestClickTokens } from '../src/subscribers/click-tokens.js';
import { createLinkRedirect } from '../src/subscribers/link-redirect.js';
import { postgresBinDir, startPostgresCluster } from '../test/support/postgres.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { watchEventLoop } from './_event-loop.js';
import { openLoad } from './_http.js';
import { prepareScalePostgres, SCALE_EDITIONS } from './_scale-store.js';

const env = { DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!' };
const WARM_S = 2;
/** Past the burst window (5 s): every reader row of the 100,000 is the flush's to write. */
const RELEASE_AFTER_S = 7;
/** Longer than a flush and its fold on PGlite under load: the figures are only of the requests scheduled then. */
const LOAD_S = 30;

/** The flush on the scale bench's PGlite store (readers 1…clicks already there). */
export async function flushAtSize(dataDir: string, clicks: number): Promise<Record<string, number | string>> {
  return flushFigures('per reader', await openStore({ dataDir }), clicks);
}

/** The same on a PostgreSQL started here with `clicks` readers, or a row saying why not. */
export async function flushOnPostgres(clicks: number): Promise<Record<string, number | string>> {
  const binDir = postgresBinDir();
  if (!binDir) return { 'flush of 100k pending clicks on PostgreSQL: skipped (no server installed)': 1 };
  const cluster = await startPostgresCluster(binDir);
  try {
    await prepareScalePostgres(cluster.url, clicks);
    return await flushFigures(
      'per reader, PostgreSQL',
      await openStore({ databaseUrl: cluster.url }),
      clicks,
    );
  } finally {
    await cluster.stop();
  }
}

async function flushFigures(label: string, store: Store, clicks: number) {
  try {
    const redirect = createLinkRedirect({
      config: parseConfig({
        analytics: { mode: 'per-reader', perMinute: 10_000 },
        server: { trustProxy: true },
      }),
      env,
      clock: systemClock,
      log: silentLogger,
      // One fold a process, as in `digest serve` (one counter): the measured counter folds this one's rows too.
      store: { ...store, clicks: { ...store.clicks, fold: async () => ({ taken: 0, left: false }) } },
    });
    const app = createServerApp({
      site: { dir: '/nonexistent-site' },
      metrics: createDigestMetrics(),
      log: () => {},
      health: { checkDatabase: async () => {} },
      security: { trustProxy: true },
      useCases: { clicks: redirect },
    });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const { counter, release } = pendingClicks(store, clicks);
      // 100 readers (the first 100: their rows are among the 100,000) clicking together, 1,000 clicks a second.
      const load = openLoad(`${server.url}r/`, {
        paths: readerLinks(100),
        clients: 100,
        intervalMs: 100,
        seconds: LOAD_S,
        warmSeconds: WARM_S,
        timeline: true,
      });
      await new Promise((resolve) => setTimeout(resolve, RELEASE_AFTER_S * 1000));
      const flush = await during(() => {
        release();
        return counter.flush();
      });
      const fold = await during(() => counter.folded());
      await counter.stop();
      const timeline = (await load).timeline ?? [];
      await redirect.stop();
      const rows = (phase: string, measured: Phase) => {
        const latencies = timeline
          .filter(([at]) => at >= measured.from && at <= measured.until)
          .map(([, ms]) => ms)
          .sort((a, b) => a - b);
        const at = (share: number) =>
          latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0;
        const name = `${phase} of 100k pending clicks (${label})`;
        return {
          [`${name}: wall ms`]: Math.round(measured.wallMs),
          [`${name}: longest event-loop block ms`]: Number(measured.longestBlockMs.toFixed(1)),
          [`${name}: /r/ p50 ms at 1,000 clicks/s during it`]: at(0.5),
          [`${name}: /r/ p99 ms at 1,000 clicks/s during it`]: at(0.99),
          [`${name}: /r/ requests during it`]: latencies.length,
        };
      };
      return { ...rows('flush', flush), ...rows('fold after the flush', fold) };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
  }
}

interface Phase {
  from: number;
  until: number;
  wallMs: number;
  longestBlockMs: number;
}

/** Runs `work`, timing it and the longest event-loop block meanwhile. */
async function during(work: () => Promise<void>): Promise<Phase> {
  const loop = watchEventLoop();
  const from = Date.now();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  return { from, until: Date.now(), wallMs, longestBlockMs: loop.stop() };
}

/**
 * A counter holding `clicks` clicks of distinct readers (1…clicks) on the newest edition, none written until
 * `release()`: past 20,000 the counter starts writing at once, and those writes would run before the measurement.
 */
function pendingClicks(store: Store, clicks: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const add: Store['clicks']['add'] = async (tallies, readers) => {
    await released;
    return store.clicks.add(tallies, readers);
  };
  const counter = createClickCounter({
    store: { clicks: { ...store.clicks, add } },
    perReader: true,
    perMinute: 1_000_000,
    timer: systemTimer,
    today: () => ({ day: '2026-05-26', at: '2026-05-26T08:00:00.000Z' }),
    log: silentLogger,
  });
  const keys = referenceEdition().items.map((item) => item.key);
  for (let index = 0; index < clicks; index++) {
    const subscriberId = 1 + index;
    counter.record({
      link: { edition: SCALE_EDITIONS.at(-1)!, revision: 1, channel: 'mail', keyTag: '-', subscriberId },
      itemKey: keys[index % keys.length]!,
      itemsInMail: keys.length,
      source: `10.${index % 250}.${Math.floor(index / 250) % 250}.${Math.floor(index / 62_500)}`,
      method: 'GET',
      userAgent: 'Mozilla/5.0',
    });
  }
  return { counter, release };
}

/** One link a reader: reader n follows item n of the newest edition's mail. */
function readerLinks(readers: number): string[] {
  const tokens = digestClickTokens({ env });
  const edition = SCALE_EDITIONS.at(-1)!;
  const items = referenceEdition().items.map((item) =>
    tokens.item({ edition, revision: 1, channel: 'mail', itemKey: item.key }),
  );
  return Array.from(
    { length: readers },
    (_, index) => `${items[index % items.length]}${tokens.reader(edition, index + 1)}`,
  );
}
