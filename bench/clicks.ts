// Counted links: the /r/ redirect of the real `digest serve` under 100 readers clicking together at 1,000 clicks/s
// (bench/_open-loop.mjs: each reader its own address and connection, latency from the scheduled time), the same 100
// saturated (autocannon), one flush of 100,000 pending clicks (how long it holds the event loop), 100,000 clicks
// through the counter into PGlite — the process's memory before and after (no growth) — and the paced /r/ while
// 100,000 readers' clicks are written in per-reader mode (bench/_clicks-flush-load.ts).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { systemTimer } from '../src/core/clock.js';
import { silentLogger } from '../src/core/ports.js';
import { openStore } from '../src/store/open-store.js';
import { createClickCounter } from '../src/subscribers/click-counter.js';
import { digestClickTokens } from '../src/subscribers/click-tokens.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { redirectDuringFlush } from './_clicks-flush-load.js';
import { watchEventLoop } from './_event-loop.js';
import { autocannon, BIN, openLoad, REDIRECT_FLOOR, startChild, stop } from './_http.js';

// A full collection before each reading, so the figures are what is kept, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const SECRET = 'bench-secret-bench-secret-bench-secret!!';
const CLICKS = 100_000;

export async function benchClicks(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-clicks-'));
  try {
    const edition = referenceEdition();
    const store = await openStore({ dataDir: join(dir, 'data') });
    await store.editions.save(edition);
    await store.editions.markPublished(edition.date, '2026-05-04T08:00:00.000Z');
    const tokens = await seedEditions(store);
    const counted = await countMany(
      store,
      edition.items.map((item) => item.key),
    );
    const flushed = await flushCost(store);
    await store.close();
    const redirect = await redirectLoad(dir, tokens);
    return { ...counted, ...flushed, ...redirect, ...(await redirectDuringFlush()) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The aggregate counter as `digest serve` makes it, counting on `day`, and the link of the reference edition's mail. */
function benchCounter(store: Awaited<ReturnType<typeof openStore>>, day: string) {
  const counter = createClickCounter({
    store,
    perReader: false,
    perMinute: 10_000,
    timer: systemTimer,
    today: () => ({ day, at: `${day}T08:00:00.000Z` }),
    log: silentLogger,
  });
  const link = {
    edition: '2026-05-04',
    revision: 1,
    channel: 'mail' as const,
    keyTag: '-',
    subscriberId: null,
  };
  return { counter, link };
}

async function countMany(store: Awaited<ReturnType<typeof openStore>>, keys: string[]) {
  const { counter, link } = benchCounter(store, '2026-05-05');
  const heap = () => process.memoryUsage().heapUsed / 1024 / 1024;
  const record = (index: number) =>
    counter.record({
      link,
      itemKey: keys[index % keys.length]!,
      itemsInMail: keys.length,
      // 5,000 readers' addresses, each clicking now and then.
      source: `198.51.${Math.floor(index / 250) % 20}.${index % 250}`,
      method: 'GET',
      userAgent: 'Mozilla/5.0',
    });
  for (let index = 0; index < 10_000; index++) record(index);
  await counter.flush();
  collect();
  const before = heap();
  const started = performance.now();
  for (let index = 0; index < CLICKS; index++) {
    record(index);
    if (index % 1000 === 999) await counter.flush();
  }
  await counter.stop();
  const seconds = (performance.now() - started) / 1000;
  collect();
  const after = heap();
  const stored = (await store.clicks.byItem('2026-05-04')).reduce(
    (sum, row) => sum + row.clicks + row.prefetched,
    0,
  );
  return {
    '100k clicks: heap MB before': Number(before.toFixed(1)),
    '100k clicks: heap MB after': Number(after.toFixed(1)),
    '100k clicks: heap growth MB': Number((after - before).toFixed(1)),
    '100k clicks: counted and stored (of 110k)': stored,
    '100k clicks: wall s (written every 1,000)': Number(seconds.toFixed(1)),
  };
}

const FLUSH_KEYS = 19_000;

/**
 * One flush of 100,000 pending clicks on 19,000 keys (just under the 20,000 at which the batch is written early: the
 * most a flush ever holds): how long it takes, and the longest the event loop is held meanwhile — PGlite runs on the
 * thread that answers /r/, so that is how long a redirect can wait behind it (the batch goes in slices).
 */
async function flushCost(store: Awaited<ReturnType<typeof openStore>>) {
  const { counter, link } = benchCounter(store, '2026-05-06');
  for (let index = 0; index < 100_000; index++)
    counter.record({
      link,
      itemKey: `url:https://example.com/item/${index % FLUSH_KEYS}`,
      itemsInMail: FLUSH_KEYS,
      source: `10.${index % 200}.${Math.floor(index / 200) % 250}.1`,
      method: 'GET',
      userAgent: 'Mozilla/5.0',
    });
  const pending = counter.held().tallies;
  const loop = watchEventLoop();
  const started = performance.now();
  await counter.flush();
  const wall = performance.now() - started;
  const longest = loop.stop();
  await counter.stop();
  return {
    'flush of 100k pending clicks: keys held': pending,
    'flush of 100k pending clicks: wall ms': Math.round(wall),
    'flush of 100k pending clicks: longest event-loop block ms': Number(longest.toFixed(1)),
  };
}

/** The same paced load against a bare node:http 302 (bench/_redirect-floor.mjs): the machine's share of the figure. */
async function floorLoad(dir: string, tokens: string[]) {
  const floor = startChild([REDIRECT_FLOOR], { cwd: dir });
  try {
    return await openLoad(`${await floor.url}r/`, {
      paths: tokens,
      clients: 100,
      intervalMs: 100,
      seconds: 10,
      warmSeconds: 2,
    });
  } finally {
    await stop(floor.child);
  }
}

/** CPU time (user + system) the process has used, from /proc (Linux, clock ticks of 10 ms), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Four published editions; the redirect's tokens name each of their items on both channels (not one hot key). */
const EDITIONS = ['2026-05-04', '2026-04-27', '2026-04-20', '2026-04-13'];

async function seedEditions(store: Awaited<ReturnType<typeof openStore>>): Promise<string[]> {
  const tokens = digestClickTokens({ env: { DIGEST_SECRET: SECRET } });
  const paths: string[] = [];
  for (const date of EDITIONS) {
    const edition = { ...referenceEdition(), date };
    if (date !== EDITIONS[0]) {
      await store.editions.save(edition);
      await store.editions.markPublished(date, `${date}T08:00:00.000Z`);
    }
    for (const [index, item] of edition.items.entries()) {
      const channel = index % 2 === 0 ? 'mail' : 'site';
      paths.push(tokens.item({ edition: date, revision: 1, channel, itemKey: item.key }));
    }
  }
  return paths;
}

async function redirectLoad(dir: string, tokens: string[]) {
  // server.trustProxy: each of the load's 100 clients is its own reader address (its X-Forwarded-For), as behind a
  // reverse proxy; the per-address limit (perMinute) stays on, above one client's 600 clicks a minute.
  await writeFile(
    join(dir, 'digest.config.json'),
    JSON.stringify({ analytics: { mode: 'aggregate', perMinute: 1_000 }, server: { trustProxy: true } }),
  );
  const serve = startChild(
    [BIN, 'serve', '--port', '0', '--out', join(dir, 'site'), '--data-dir', join(dir, 'data')],
    {
      cwd: dir,
      env: { DIGEST_SECRET: SECRET, DATABASE_URL: '', PORT: '' },
    },
  );
  try {
    const base = `${await serve.url}r/`;
    const loadBefore = loadavg()[0]!;
    const first = await fetch(`${base}${tokens[0]}`, { redirect: 'manual' });
    // 100 readers clicking together at 1,000 clicks a second (far above a newsletter's peak): each every 100 ms on
    // its own phase, latency from the scheduled time (bench/_open-loop.mjs); the first 2 s warm the route.
    const cpuBefore = cpuMs(serve.child.pid!);
    const paced = await openLoad(base, {
      paths: tokens,
      clients: 100,
      intervalMs: 100,
      seconds: 10,
      warmSeconds: 2,
    });
    const cpuPerThousand = ((cpuMs(serve.child.pid!) - cpuBefore) / (paced.requests + 2_000)) * 1_000;
    // The same 100 sending as fast as they are answered (autocannon, one address): throughput on these 2 cores.
    const load = await autocannon(`${base}${tokens[0]}`, { seconds: 5, connections: 100 });
    const floor = await floorLoad(dir, tokens);
    const { 302: found = 0, ...others } = paced.statuses;
    return {
      '/r/ first answer (302 = 1)': first.status === 302 ? 1 : 0,
      '/r/ p50 ms (100 clients, 1,000 clicks/s together)': paced.p50Ms,
      '/r/ p99 ms (100 clients, 1,000 clicks/s together)': paced.p99Ms,
      '/r/ max ms (100 clients, 1,000 clicks/s together)': paced.maxMs,
      '/r/ 302 answers (of the paced 10,000)': found,
      '/r/ other answers, errors, unanswered (paced)':
        Object.values(others).reduce((sum, count) => sum + count, 0) + paced.errors + paced.unanswered,
      '/r/ other statuses (paced)': JSON.stringify(others),
      '/r/ generator late max ms (its own share)': paced.generatorLateMaxMs,
      '/r/ slowest answer scheduled at s (of 10)': paced.worstAtS,
      '/r/ serve CPU ms per 1,000 redirects (paced)': Math.round(cpuPerThousand),
      'floor: bare node:http 302, same load, p50 ms': floor.p50Ms,
      'floor: bare node:http 302, same load, p99 ms': floor.p99Ms,
      'load average (1 min) before the paced run': Number(loadBefore.toFixed(1)),
      '/r/ req/s (100 clients, saturated)': load.requestsPerSecond,
      '/r/ p99 ms (100 clients, saturated)': load.p99Ms,
    };
  } finally {
    await stop(serve.child);
  }
}
