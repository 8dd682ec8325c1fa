// The archive API: full-text search p95 over ten years of weekly editions (520 editions, ~6,200 items) on PGlite,
// through the same use case the API and MCP call; and the API's edition GET against a plain static server on the
// edition page (autocannon, bounded), both from the real `digest serve`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { searchItemsInput } from '../src/api/api-schemas.js';
import { createArchive } from '../src/api/archive.js';
import { addDays } from '../src/core/dates.js';
import { publishSite } from '../src/publish/publish-site.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { chunks } from '../src/store/_values.js';
import { createStore } from '../src/store/create-store.js';
import { pgliteDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { openStore } from '../src/store/open-store.js';
import { pgliteOptions } from '../src/store/pglite-options.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { weeklyEditions } from '../test/support/weekly-editions.js';
import { autocannon, BIN, STATIC_SERVER, startChild, stop } from './_http.js';

const here = dirname(fileURLToPath(import.meta.url));
const EDITIONS = 520;
const LOAD = { seconds: 5, connections: 10 };

/** Queries a reader or an agent would send, with and without filters (parsed as the API parses them). */
const QUERIES = [
  { q: 'agents' },
  { q: 'safety fine-tuning' },
  { q: '"reward model"' },
  { q: 'red-teaming prompt injection' },
  { q: 'benchmark -agents' },
  { q: 'goblins' },
  { q: 'data engineering', level: 'Intermediate' },
  { q: 'agents', topic: 'evaluation' },
  { q: 'language models', from: '2020-01-01', to: '2022-12-31' },
  { q: 'agents or safety', source: 'api-hf', limit: '50' },
  { q: 'no such words anywhere' },
  { q: "'; DROP TABLE items; --" },
];

async function seededArchive() {
  const pglite = await PGlite.create({ dataDir: 'memory://', ...pgliteOptions(PGlite) });
  const db = pgliteDatabase(pglite, { ownsDatabase: true });
  await migrate(db);
  const reference = referenceEdition();
  const editions = Array.from({ length: EDITIONS }, (_, week) => addDays(reference.date, -7 * week));
  await db
    .insertInto('editions')
    .values(
      editions.map((date) => ({
        date,
        name: reference.name,
        title: `${reference.title} · ${date}`,
        item_count: reference.items.length,
        body: sql`'{}'::jsonb` as never,
        published_at: `${date}T09:00:00.000Z`,
      })),
    )
    .execute();
  // Every week's items are the reference's, with a week-specific word so no two rows are the same document.
  const rows = editions.flatMap((date, week) =>
    reference.items.map((item, position) => ({
      edition_date: date,
      position,
      item_key: `${item.key}#${week}`,
      title: `${item.title} w${week}`,
      url: item.url,
      level: item.level,
      source: item.source,
      sources: JSON.stringify(item.sources),
      authors: JSON.stringify(item.authors),
      summary: item.summary,
      takeaways: JSON.stringify(item.takeaways),
      item_published_at: item.publishedAt,
    })),
  );
  for (const batch of chunks(rows, 500)) await db.insertInto('search_items').values(batch).execute();
  await sql`ANALYZE search_items`.execute(db);
  return { store: createStore(db), items: rows.length };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function benchSearchLatency() {
  const { store, items } = await seededArchive();
  try {
    const archive = createArchive({ store, baseUrl: 'https://digest.example.org/' });
    const inputs = QUERIES.map((query) => searchItemsInput.parse(query));
    for (const input of inputs) await archive.searchItems(input); // warm: plans and pages
    const times: number[] = [];
    let results = 0;
    for (let round = 0; round < 25; round++) {
      for (const input of inputs) {
        const started = performance.now();
        results += (await archive.searchItems(input)).results.length;
        times.push(performance.now() - started);
      }
    }
    return {
      items,
      'search p50 ms': Number(percentile(times, 50).toFixed(2)),
      'search p95 ms': Number(percentile(times, 95).toFixed(2)),
      'search max ms': Number(Math.max(...times).toFixed(2)),
      'results per query': Math.round(results / times.length),
    };
  } finally {
    await store.close();
  }
}

async function benchEditionGet() {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-api-'));
  const site = join(dir, 'site');
  const editions = weeklyEditions(3);
  await publishSite({ fs: nodeFileSystem, outDir: site, editions, baseUrl: 'https://digest.example.org/' });
  const store = await openStore({ dataDir: join(dir, 'data') });
  for (const edition of editions) await store.editions.save(edition);
  await store.close();
  // One client measuring throughput: the per-address limit (120 a minute by default) is lifted.
  await writeFile(join(dir, 'digest.config.json'), JSON.stringify({ server: { apiPerMinute: 1_000_000 } }));
  const serve = startChild([BIN, 'serve', '--port', '0', '--out', site, '--data-dir', join(dir, 'data')], {
    cwd: dir,
    env: { DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!', DATABASE_URL: '', PORT: '' },
  });
  const plain = startChild(['--import', 'tsx', STATIC_SERVER, join(site, '2026-05-04', 'index.html')], {
    cwd: join(here, '..'),
  });
  try {
    const [serveUrl, plainUrl] = await Promise.all([serve.url, plain.url]);
    const api = `${serveUrl}api/v1/editions/2026-05-04`;
    // Warm both servers (JIT, the answer cache) before measuring, as a running server is.
    await autocannon(api, { ...LOAD, seconds: 2 });
    await autocannon(plainUrl, { ...LOAD, seconds: 2 });
    // The machine is shared: each side runs twice, alternating, and keeps its best run.
    const baselineRuns = [];
    const editionRuns = [];
    for (let round = 0; round < 2; round++) {
      baselineRuns.push(await autocannon(plainUrl, LOAD));
      editionRuns.push(await autocannon(api, LOAD));
    }
    const best = (runs: Awaited<ReturnType<typeof autocannon>>[]) =>
      runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const baseline = best(baselineRuns);
    const edition = best(editionRuns);
    const errors = [...baselineRuns, ...editionRuns].reduce((sum, run) => sum + run.non2xx, 0);
    return {
      'static page req/s': baseline.requestsPerSecond,
      'API edition GET req/s': edition.requestsPerSecond,
      'API edition / static req/s': Number(
        (edition.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
      ),
      'API edition p99 ms': edition.p99Ms,
      'API non-2xx or errors': errors,
    };
  } finally {
    await Promise.all([stop(serve.child), stop(plain.child)]);
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchSearch(): Promise<Record<string, number | string>> {
  // The HTTP figures first: the search part leaves a large PGlite heap behind in this process.
  const http = await benchEditionGet();
  return { ...(await benchSearchLatency()), ...http };
}
