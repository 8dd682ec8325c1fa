// The editor's desk: the board of a 2,000-candidate week, rendered by the server (the `list` plan, the draft, the
// decisions, filters → HTML), measured through the real Hono app with a signed-in session.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDigest } from '../src/compose/create-digest.js';
import { parseConfig } from '../src/config/index.js';
import { editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import { createHttpClient } from '../src/net/http-client.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { signedInDesk } from './_desk-app.js';
import { replicatedWeek, seedWeekItems } from './_seed-week.js';
import { withPreparedStore } from './_store.js';

const CANDIDATES = 2_000;
const WEEK = '2026-05-04';
const RUNS = 10;

export async function benchDesk(): Promise<Record<string, number | string>> {
  const real = await seedWeekItems();
  const items = replicatedWeek(real, CANDIDATES, WEEK);
  const dir = await mkdtemp(join(tmpdir(), 'bench-desk-'));
  try {
    return await withPreparedStore(async (store) => {
      await store.items.upsert(items);
      const digest = createDigest({
        config: parseConfig({ enrich: { enabled: false } }),
        store,
        http: createHttpClient({ timeoutMs: 5000, maxBytes: 1024 * 1024, retries: 0 }),
        clock: { now: () => new Date('2026-05-05T09:00:00Z') },
        log: silentLogger,
        fs: nodeFileSystem,
        env: {},
      });
      await digest.build({
        week: WEEK,
        outDir: dir,
        ingest: false,
        enrich: false,
        offline: true,
        check: false,
        refresh: false,
      });
      const time = await signedInDesk(digest, dir);
      // The first view ranks the week (the `list` plan, ~1 s for 2,000 candidates); later views reuse it.
      const first = await time(`/admin/week/${WEEK}`);
      const board: number[] = [];
      const search: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const result = await time(`/admin/week/${WEEK}`);
        board.push(result.ms);
        bytes = result.bytes;
        search.push((await time(`/admin/week/${WEEK}?q=agent&show=candidates&page=2`)).ms);
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      return {
        candidates: (await store.items.candidates(editionWindow(WEEK))).length,
        'board render ms (2,000 candidates, median)': Math.round(median(board)),
        'board search ms (median)': Math.round(median(search)),
        'board first view ms (ranking computed)': Math.round(first.ms),
        'board KB': Math.round(bytes / 102.4) / 10,
      };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
