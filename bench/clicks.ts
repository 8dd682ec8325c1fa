// Counted links: the /r/ redirect of the real `digest serve` under 100 concurrent clients (autocannon, 5 s), and
// 100,000 clicks through the counter into PGlite — the process's memory before and after (no growth).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { systemTimer } from '../src/core/clock.js';
import { silentLogger } from '../src/core/ports.js';
import { openStore } from '../src/store/open-store.js';
import { createClickCounter } from '../src/subscribers/click-counter.js';
import { digestClickTokens } from '../src/subscribers/click-tokens.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { autocannon, BIN, openLoad, startChild, stop } from './_http.js';

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
    await store.close();
    const redirect = await redirectLoad(dir, tokens);
    return { ...counted, ...redirect };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function countMany(store: Awaited<ReturnType<typeof openStore>>, keys: string[]) {
  const counter = createClickCounter({
    store,
    perReader: false,
    perMinute: 10_000,
    timer: systemTimer,
    today: () => ({ day: '2026-05-05', at: '2026-05-05T08:00:00.000Z' }),
    log: silentLogger,
  });
  const link = {
    edition: '2026-05-04',
    revision: 1,
    channel: 'mail' as const,
    keyTag: '-',
    subscriberId: null,
  };
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
    [BIN, 'serve', '--port', '0', '--site', join(dir, 'site'), '--data-dir', join(dir, 'data')],
    {
      cwd: dir,
      env: { DIGEST_SECRET: SECRET, DATABASE_URL: '', PORT: '' },
    },
  );
  try {
    const base = `${await serve.url}r/`;
    const first = await fetch(`${base}${tokens[0]}`, { redirect: 'manual' });
    // 100 readers clicking together at 1,000 clicks a second (far above a newsletter's peak): each every 100 ms on
    // its own phase, latency from the scheduled time (bench/_open-loop.mjs); the first 2 s warm the route.
    const paced = await openLoad(base, {
      paths: tokens,
      clients: 100,
      intervalMs: 100,
      seconds: 10,
      warmSeconds: 2,
    });
    // The same 100 sending as fast as they are answered (autocannon, one address): throughput on these 2 cores.
    const load = await autocannon(`${base}${tokens[0]}`, { seconds: 5, connections: 100 });
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
      '/r/ req/s (100 clients, saturated)': load.requestsPerSecond,
      '/r/ p99 ms (100 clients, saturated)': load.p99Ms,
    };
  } finally {
    await stop(serve.child);
  }
}
