// Ingest of 10,000 feed items replicated from a real feed (simonwillison.net, ~3.9 KB an entry), served as
// 50 feeds of 200 entries on loopback — a week of many sources — through the real adapters and store.
// Raw parse (fetch + parse, nothing stored) vs the real ingest (fetch + parse + dedup + store).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../src/config/index.js';
import { systemTimer } from '../src/core/clock.js';
import { editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import { ingest } from '../src/editions/ingest.js';
import { createHttpClient } from '../src/net/http-client.js';
import { createSource } from '../src/sources/index.js';
import { replicatedAtomFeed } from './_data.js';
import { withPreparedStore } from './_store.js';

const FEEDS = 50;
const PER_FEED = 200;
const ITEMS = FEEDS * PER_FEED;
const WEEK = '2026-06-22';

export async function benchIngest(): Promise<Record<string, number | string>> {
  const bodies = Array.from({ length: FEEDS }, (_, feed) =>
    Buffer.from(replicatedAtomFeed(PER_FEED, WEEK, feed * PER_FEED)),
  );
  const server = createServer((request, response) => {
    const feed = Number(/\/feed-(\d+)\.xml$/.exec(request.url ?? '')?.[1] ?? -1);
    const body = bodies[feed];
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = parseConfig({
    sources: bodies.map((_, feed) => ({
      id: `rss-bench-${feed}`,
      type: 'feed',
      url: `${origin}/feed-${feed}.xml`,
    })),
  });
  const http = createHttpClient({ timeoutMs: 60_000, maxBytes: 20 * 1024 * 1024, retries: 2 });
  const window = editionWindow(WEEK);
  const sources = config.sources.map((source) => createSource(source));
  try {
    // Raw parse: every feed fetched over loopback and parsed to items, nothing stored (best of 3).
    let parseSeconds = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      let parsed = 0;
      for (const source of sources) {
        parsed += (await source.fetch({ window, http, state: {}, log: silentLogger })).items.length;
      }
      parseSeconds = Math.min(parseSeconds, (performance.now() - started) / 1000);
      if (parsed !== ITEMS) throw new Error(`expected ${ITEMS} items, parsed ${parsed}`);
    }

    return await withPreparedStore(async (store) => {
      const run = () =>
        ingest({
          sources: config.sources,
          window,
          ports: { store, http, log: silentLogger, timer: systemTimer, createSource: (c) => createSource(c) },
        });
      let started = performance.now();
      const reports = await run();
      const storeSeconds = (performance.now() - started) / 1000;
      const failed = reports.find((report) => report.status !== 'ok');
      if (failed) throw new Error(`ingest failed: ${failed.id}: ${failed.error}`);
      started = performance.now();
      await run();
      const rerunSeconds = (performance.now() - started) / 1000;
      const stored = (await store.items.candidates(window)).length;
      const parseRate = ITEMS / parseSeconds;
      const storeRate = ITEMS / storeSeconds;
      return {
        'items ingested': ITEMS,
        'feeds × entries': `${FEEDS} × ${PER_FEED}`,
        'feed bytes MB (all)':
          Math.round((bodies.reduce((sum, body) => sum + body.length, 0) / 1024 / 1024) * 10) / 10,
        'raw parse items/s': Math.round(parseRate),
        'stored items/s': Math.round(storeRate),
        'overhead ratio (parse / stored)': Math.round((parseRate / storeRate) * 100) / 100,
        'rerun (all duplicates) items/s': Math.round(ITEMS / rerunSeconds),
        'rows after rerun': stored,
      };
    });
  } finally {
    server.close();
  }
}
