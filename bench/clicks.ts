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
import { autocannon, BIN, startChild, stop } from './_http.js';

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
    const counted = await countMany(
      store,
      edition.items.map((item) => item.key),
    );
    await store.close();
    const redirect = await redirectLoad(dir, edition.date, edition.items[0]!.key);
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

async function redirectLoad(dir: string, date: string, itemKey: string) {
  await writeFile(
    join(dir, 'digest.config.json'),
    JSON.stringify({ analytics: { mode: 'aggregate', perMinute: 10_000 } }),
  );
  const token = digestClickTokens({ env: { DIGEST_SECRET: SECRET } }).item({
    edition: date,
    revision: 1,
    channel: 'mail',
    itemKey,
  });
  const serve = startChild(
    [BIN, 'serve', '--port', '0', '--site', join(dir, 'site'), '--data-dir', join(dir, 'data')],
    {
      cwd: dir,
      env: { DIGEST_SECRET: SECRET, DATABASE_URL: '', PORT: '' },
    },
  );
  try {
    const url = `${await serve.url}r/${token}`;
    const first = await fetch(url, { redirect: 'manual' });
    // 100 readers clicking together at 1,000 clicks a second (far above a newsletter's peak), then the same 100
    // sending as fast as they are answered: saturated, where any latency is 100 / throughput on these 2 cores.
    // Warmed first (connections opened, the route compiled), so the paced figure is the service's, not its start.
    await autocannon(url, { seconds: 2, connections: 100, overallRate: 1_000 });
    const paced = await autocannon(url, { seconds: 5, connections: 100, overallRate: 1_000 });
    const load = await autocannon(url, { seconds: 5, connections: 100 });
    return {
      '/r/ first answer (302 = 1)': first.status === 302 ? 1 : 0,
      '/r/ p99 ms (100 clients, 1,000 clicks/s together)': paced.p99Ms,
      '/r/ req/s (100 clients, saturated)': load.requestsPerSecond,
      '/r/ p99 ms (100 clients, saturated)': load.p99Ms,
    };
  } finally {
    await stop(serve.child);
  }
}
