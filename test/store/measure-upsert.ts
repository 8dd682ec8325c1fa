// Upsert throughput, outside the test run:
//   node --import tsx test/store/measure-upsert.ts [postgres://… | PGLITE_DATA_DIR]   (default: PGlite in memory)
// 10,000 synthetic feed items (built here, not recorded) stored in one call, then stored again (all merges).
import { openStore } from '../../src/store/open-store.js';
import { syntheticItems } from './synthetic-items.js';

const COUNT = 10_000;
const target = process.argv[2];
const databaseUrl = target?.startsWith('postgres') ? target : undefined;
const dataDir = databaseUrl ? undefined : (target ?? 'memory://');
const items = syntheticItems(COUNT, '2026-06-22');

let started = performance.now();
const store = await openStore(databaseUrl ? { databaseUrl } : { dataDir });
const openMs = performance.now() - started;
try {
  started = performance.now();
  const first = await store.items.upsert(items);
  const firstSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const second = await store.items.upsert(items);
  const secondSeconds = (performance.now() - started) / 1000;
  const rows = (await store.items.candidates({ start: '2026-06-16', end: '2026-06-22' })).length;
  console.log(
    JSON.stringify(
      {
        database: databaseUrl ? 'postgresql' : `pglite (${dataDir})`,
        openMs: Math.round(openMs),
        insertItemsPerSecond: Math.round(COUNT / firstSeconds),
        rerunItemsPerSecond: Math.round(COUNT / secondSeconds),
        first,
        second,
        rows,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      },
      null,
      2,
    ),
  );
} finally {
  await store.close();
}
