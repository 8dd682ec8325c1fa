// The 118 real papers behind the reference edition, read by the real hf-daily-papers-rss adapter from loopback.
import { parseConfig } from '../src/config/index.js';
import { editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import type { SourceItem } from '../src/core/types.js';
import { createHttpClient } from '../src/net/http-client.js';
import { createSource } from '../src/sources/index.js';
import { startSeedWeekServer } from '../test/sources/_servers.js';

export async function seedWeekItems(week = '2026-05-04'): Promise<SourceItem[]> {
  const server = await startSeedWeekServer();
  try {
    const config = parseConfig({
      sources: [{ id: 'api-hf', type: 'hf-daily-papers-rss', url: server.url('/hf-daily/{date}.xml') }],
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
    await server.close();
  }
}
