// Ingest of 10,000 feed items (replicated from a real feed): raw parse vs parse + dedup + store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../src/config/index.js';
import { editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import { createHttpClient } from '../src/net/http-client.js';
import { ingest } from '../src/pipeline/ingest.js';
import { createSource } from '../src/sources/index.js';
import { openStore } from '../src/store/open-store.js';
import { replicatedAtomFeed } from './_data.js';

const ITEMS = 10_000;
const WEEK = '2026-06-22';

export async function benchIngest(): Promise<Record<string, number | string>> {
  const body = Buffer.from(replicatedAtomFeed(ITEMS, WEEK));
  const server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/atom.xml`;
  const config = parseConfig({
    sources: [{ id: 'rss-bench', type: 'feed', url }],
    http: { maxBytes: 200 * 1024 * 1024 },
  });
  const http = createHttpClient({ timeoutMs: 60_000, maxBytes: 200 * 1024 * 1024, retries: 0 });
  const window = editionWindow(WEEK);
  const source = createSource(config.sources[0]!);
  try {
    // Raw parse: fetch over loopback + parse to items, nothing stored (best of 3).
    let parseSeconds = Number.POSITIVE_INFINITY;
    let parsed = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const result = await source.fetch({ window, http, state: {}, log: silentLogger });
      parseSeconds = Math.min(parseSeconds, (performance.now() - started) / 1000);
      parsed = result.items.length;
    }
    if (parsed !== ITEMS) throw new Error(`expected ${ITEMS} items, parsed ${parsed}`);

    const store = await openStore({ dataDir: 'memory://' });
    try {
      const run = () =>
        ingest({
          sources: config.sources,
          window,
          store,
          http,
          log: silentLogger,
          createSource: (c) => createSource(c),
        });
      let started = performance.now();
      const [first] = await run();
      const storeSeconds = (performance.now() - started) / 1000;
      if (first?.status !== 'ok') throw new Error(`ingest failed: ${first?.error}`);
      started = performance.now();
      await run();
      const rerunSeconds = (performance.now() - started) / 1000;
      const stored = (await store.listCandidates(window)).length;
      return {
        'items ingested': ITEMS,
        'feed size MB': Math.round((body.length / 1024 / 1024) * 10) / 10,
        'raw parse items/s': Math.round(ITEMS / parseSeconds),
        'stored items/s': Math.round(ITEMS / storeSeconds),
        'overhead ratio (parse / stored)':
          Math.round((ITEMS / parseSeconds / (ITEMS / storeSeconds)) * 100) / 100,
        'rerun (all duplicates) items/s': Math.round(ITEMS / rerunSeconds),
        'rows after rerun': stored,
      };
    } finally {
      await store.close();
    }
  } finally {
    server.close();
  }
}
