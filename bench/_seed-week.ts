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

/**
 * `count` candidates for the week: the real papers, then copies of them whose titles join two real titles (distinct
 * candidates, not near-duplicates that dedup merges), all inside the week's window.
 */
export function replicatedWeek(real: SourceItem[], count: number, week = '2026-05-04'): SourceItem[] {
  const window = editionWindow(week);
  return Array.from({ length: count }, (_, index) => {
    const base = real[index % real.length]!;
    const copy = Math.floor(index / real.length);
    return copy === 0
      ? base
      : {
          ...base,
          arxivId: null,
          url: `https://replica.example/copy-${copy}/item-${index}`,
          title: `${base.title}: ${real[(index * 7 + copy) % real.length]!.title}`,
          publishedAt: `${window.start}T00:00:00.000Z`,
        };
  });
}
