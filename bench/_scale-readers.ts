// Readers at size: `readers` confirmed readers, 26 published editions, the last 8 mailed to every reader (the
// trend's reach), and `clickRows` per-reader click rows spread over the 26 editions' items (first clicks, as
// per-reader mode keeps them) with their aggregate counts. Then `digest stats --json` as the operator runs it, and
// the ranking's reader history in this process, each timed (median of 3).
import { join } from 'node:path';
import { readerHistory } from '../src/editions/reader-history.js';
import { openStore } from '../src/store/open-store.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { withPglite } from './_scale-store.js';
import { runDigest } from './_smtp-sink.js';

const EDITIONS = 26;
const MAILED = 8;

export function editionDates(): string[] {
  // The 26 weeks before the send's editions (bench/_scale-store.ts), which the send and kill runs mail.
  const first = Date.parse('2025-10-27T00:00:00Z');
  return Array.from({ length: EDITIONS }, (_, index) =>
    new Date(first + index * 7 * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Adds the editions, their send rows and clicks to a store that holds `readers` readers already. */
export async function addReadingHistory(dataDir: string, readers: number, clickRows: number): Promise<void> {
  const dates = editionDates();
  const store = await openStore({ dataDir });
  try {
    for (const date of dates) {
      await store.editions.save({ ...referenceEdition(), date });
      await store.editions.markPublished(date, `${date}T08:00:00.000Z`);
    }
  } finally {
    await store.close();
  }
  const keys = referenceEdition().items.map((item) => `'${item.key.replaceAll("'", "''")}'`);
  const perEdition = Math.ceil(clickRows / EDITIONS);
  await withPglite(dataDir, async (pg) => {
    for (const date of dates.slice(-MAILED)) {
      await pg.exec(`
        INSERT INTO send_log (edition_date, subscriber_id, state, attempts, created_at)
        SELECT '${date}'::date, id, 'sent', 1, '${date}T09:00:00Z'::timestamptz FROM subscribers
        ON CONFLICT DO NOTHING;`);
    }
    for (const date of dates) {
      // Reader r clicks item (r + k) of the edition: distinct (reader, item) pairs, as first clicks are.
      await pg.exec(`
        INSERT INTO reader_clicks (edition_date, revision, item_key, channel, subscriber_id, clicked_at)
        SELECT '${date}'::date, 1, (ARRAY[${keys.join(',')}])[1 + (g / ${readers}) % ${keys.length}], 'mail',
               1 + g % ${readers}, '${date}T10:00:00Z'::timestamptz
        FROM generate_series(0, ${perEdition - 1}) AS g ON CONFLICT DO NOTHING;
        INSERT INTO link_clicks (edition_date, revision, item_key, channel, day, clicks, prefetched)
        SELECT edition_date, 1, item_key, 'mail', '${date}'::date, count(*), 0 FROM reader_clicks
        WHERE edition_date = '${date}'::date GROUP BY edition_date, item_key;`);
    }
    await pg.exec('ANALYZE;');
  });
}

async function median(times: number, fn: () => Promise<number>): Promise<number> {
  const runs: number[] = [];
  for (let index = 0; index < times; index++) runs.push(await fn());
  return runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
}

/** `digest stats --json` of the newest edition, wall s of the whole command (median of 3). */
export async function timeStats(cwd: string): Promise<number> {
  return median(3, async () => {
    const run = await runDigest(cwd, ['stats', '--json']);
    const stats = JSON.parse(run.stdout) as { mail: { sent: number } };
    if (stats.mail.sent === 0) throw new Error('stats found no mails sent');
    return run.wallS;
  });
}

/** The ranking's reader history before a week after the last edition, ms (median of 3, store open). */
export async function timeReaderHistory(dataDir: string): Promise<number> {
  const store = await openStore({ dataDir });
  try {
    return await median(3, async () => {
      const started = performance.now();
      const history = await readerHistory(store, '2026-12-31');
      if (history.length === 0) throw new Error('reader history found no edition');
      return performance.now() - started;
    });
  } finally {
    await store.close();
  }
}

export function dataDirOf(cwd: string): string {
  return join(cwd, 'data');
}
