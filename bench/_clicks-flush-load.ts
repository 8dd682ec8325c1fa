// The redirect while a list's clicks are written: the real `digest serve` in per-reader mode over 100,000 readers,
// 2,000 readers' clicks a second arriving for 50 s (100,000 clicks, each reader once, so each a reader row to write)
// while 100 other readers click together at 1,000 clicks/s for 10 s in the middle — their /r/ latency is the row.
// PGlite writes on the thread that answers /r/, so this is how long a click waits behind the counter's writes.
// Both loads are open-loop generators of their own (bench/_open-loop.mjs), latency from the scheduled time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestClickTokens } from '../src/subscribers/click-tokens.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { BIN, openLoad, startChild, stop } from './_http.js';
import { prepareScaleStore, SCALE_EDITIONS, withPglite } from './_scale-store.js';

const SECRET = 'bench-secret-bench-secret-bench-secret!!';
const READERS = 100_000;
const FLOOD_PER_SECOND = 2_000;
const FLOOD_SECONDS = READERS / FLOOD_PER_SECOND;
const PACED_FROM_S = 20;

export async function redirectDuringFlush(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-clicks-flush-'));
  try {
    const dataDir = join(dir, 'data');
    await prepareScaleStore(dataDir, READERS);
    const paths = readerLinks(READERS);
    const pathsFile = join(dir, 'paths.txt');
    await writeFile(pathsFile, paths.join('\n'));
    await writeFile(
      join(dir, 'digest.config.json'),
      JSON.stringify({ analytics: { mode: 'per-reader', perMinute: 10_000 }, server: { trustProxy: true } }),
    );
    const serve = startChild(
      [BIN, 'serve', '--port', '0', '--out', join(dir, 'site'), '--data-dir', dataDir],
      {
        cwd: dir,
        env: { DIGEST_SECRET: SECRET, DATABASE_URL: '', PORT: '' },
      },
    );
    let figures: Record<string, number | string>;
    try {
      const base = `${await serve.url}r/`;
      const loadBefore = loadavg()[0]!;
      const flood = openLoad(base, {
        pathsFile,
        rotate: true,
        clients: 100,
        intervalMs: (100 * 1000) / FLOOD_PER_SECOND,
        seconds: FLOOD_SECONDS,
      });
      await new Promise((resolve) => setTimeout(resolve, (PACED_FROM_S - 2) * 1000));
      // The same readers' links as the flood's first 100 (their rows are already written: these add none).
      const paced = await openLoad(base, {
        paths: paths.slice(0, 100),
        clients: 100,
        intervalMs: 100,
        seconds: 10,
        warmSeconds: 2,
      });
      const flooded = await flood;
      const { 302: found = 0, ...others } = paced.statuses;
      figures = {
        '/r/ p99 ms at 1,000 clicks/s while 100k reader clicks are written': paced.p99Ms,
        '/r/ p50 ms at 1,000 clicks/s while 100k reader clicks are written': paced.p50Ms,
        '/r/ max ms while 100k reader clicks are written': paced.maxMs,
        '/r/ other answers, errors, unanswered (while written)':
          Object.values(others).reduce((sum, count) => sum + count, 0) + paced.errors + paced.unanswered,
        '/r/ generator late max ms (while written, its own share)': paced.generatorLateMaxMs,
        '100k reader clicks: p99 ms of their own redirects (2,000/s)': flooded.p99Ms,
        '100k reader clicks: 302 answers': flooded.statuses[302] ?? 0,
        'load average (1 min) before the run with 100k reader clicks': Number(loadBefore.toFixed(1)),
      };
    } finally {
      await stop(serve.child);
    }
    // Each reader clicked once: their rows, folded or still incoming (the next start folds those), add up to them.
    const rows = await withPglite(dataDir, (pg) =>
      pg.query<{ folded: number; incoming: number }>(
        `SELECT (SELECT count(*) FROM reader_clicks)::int AS folded,
                (SELECT count(*) FROM reader_clicks_incoming)::int AS incoming`,
      ),
    );
    const { folded = 0, incoming = 0 } = rows.rows[0] ?? {};
    return {
      ...figures,
      '100k reader clicks: reader rows stored': folded + incoming,
      '100k reader clicks: of them still to fold when serve stopped': incoming,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One link a reader: reader n follows item n of the newest edition's mail (its items in turn). */
function readerLinks(readers: number): string[] {
  const tokens = digestClickTokens({ env: { DIGEST_SECRET: SECRET } });
  const edition = SCALE_EDITIONS.at(-1)!;
  const items = referenceEdition().items.map((item) =>
    tokens.item({ edition, revision: 1, channel: 'mail', itemKey: item.key }),
  );
  const reader = (id: number) => `${items[id % items.length]}${tokens.reader(edition, id)}`;
  return Array.from({ length: readers }, (_, index) => reader(index + 1));
}
