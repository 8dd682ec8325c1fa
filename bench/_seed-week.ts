// The 118 real papers behind the reference edition, read by the real hf-daily-papers-rss adapter from loopback.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/index.js';
import { addDays, editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import type { SourceItem } from '../src/core/types.js';
import { createHttpClient } from '../src/net/http-client.js';
import { createSource } from '../src/sources/index.js';

const SEED = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'fixtures',
  'real',
  'seed-week-2026-05-04',
);

export async function seedWeekItems(week = '2026-05-04'): Promise<SourceItem[]> {
  const server = createServer((request, response) => {
    const day = /\/(\d{4}-\d{2}-\d{2})\.xml$/.exec(request.url ?? '')?.[1];
    try {
      // The capture of day D+1 holds HF's list of day D.
      const body = readFileSync(join(SEED, `hf-daily-rss-huangboming_${addDays(day ?? '', 1)}.xml`));
      response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = parseConfig({
      sources: [{ id: 'api-hf', type: 'hf-daily-papers-rss', url: `${origin}/{date}.xml` }],
    });
    const http = createHttpClient({ timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, retries: 0 });
    const result = await createSource(config.sources[0]!).fetch({
      window: editionWindow(week),
      http,
      state: {},
      log: silentLogger,
    });
    const unique = new Map(result.items.map((item) => [item.arxivId ?? item.url, item]));
    return [...unique.values()];
  } finally {
    server.close();
  }
}
