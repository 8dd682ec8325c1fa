// Store contract: counted links. Counts add up (also from two stores on one database, as two `digest serve`
// instances), the aggregate table names no reader, reader rows go with the reader. Both databases.
import { describe, expect, it } from 'vitest';
import type { ClickTally, ReaderClick } from '../../src/store/clicks.js';
import { openStore, openStoreFromPglite } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import {
  createPostgresDatabase,
  type DatabaseKind,
  freshPglite,
  onServer,
  storeDatabases,
  useTestStore,
} from '../support/database.js';

const tally = (over: Partial<ClickTally>): ClickTally => ({
  edition: '2026-11-23',
  revision: 1,
  itemKey: 'item-a',
  channel: 'mail',
  day: '2026-11-24',
  clicks: 0,
  prefetched: 0,
  ...over,
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`link clicks on ${kind}`, () => {
    const store = useTestStore(kind);

    it('adds counts up across batches, revisions, channels and days; repeats within a batch summed', async () => {
      await store().clicks.add(
        [
          tally({ clicks: 2 }),
          tally({ clicks: 1, prefetched: 12 }),
          tally({ itemKey: 'item-b', prefetched: 1 }),
        ],
        [],
      );
      await store().clicks.add(
        [
          tally({ clicks: 1, revision: 2 }),
          tally({ clicks: 1, channel: 'site', day: '2026-11-25' }),
          tally({ edition: '2026-11-16', clicks: 4 }),
        ],
        [],
      );
      expect(await store().clicks.byItem('2026-11-23')).toEqual([
        { itemKey: 'item-a', clicks: 5, prefetched: 12, uniqueReaders: null },
        { itemKey: 'item-b', clicks: 0, prefetched: 1, uniqueReaders: null },
      ]);
      expect(await store().clicks.byEdition(10)).toEqual([
        { edition: '2026-11-23', clicks: 5, prefetched: 13 },
        { edition: '2026-11-16', clicks: 4, prefetched: 0 },
      ]);
      expect(await store().clicks.byEdition(1)).toHaveLength(1);
      expect(await store().clicks.byItem('2026-01-01')).toEqual([]);
    });

    it('a scanner found out late moves its counted clicks over; a reader may turn their counting off', async () => {
      await store().clicks.add([tally({ clicks: 2 })], []);
      await store().clicks.add([tally({ clicks: -1, prefetched: 1 })], []);
      expect(await store().clicks.byItem('2026-11-23')).toEqual([
        { itemKey: 'item-a', clicks: 1, prefetched: 1, uniqueReaders: null },
      ]);
      const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
      const click = { edition: '2026-11-23', revision: 1, itemKey: 'item-a', channel: 'mail' as const };
      await store().clicks.add([], [{ ...click, subscriberId: ada.id, at: '2026-11-24T08:00:00.000Z' }]);
      expect(await store().clicks.readerCounting(ada.id)).toBe(true);
      expect(await store().clicks.setReaderCounting(ada.id, false)).toBe(true);
      expect(await store().clicks.readerCounting(ada.id)).toBe(false);
      // Turning it off deletes what was kept, and later clicks of theirs are not kept.
      expect(await store().clicks.forSubscriber(ada.id)).toEqual([]);
      await store().clicks.add([], [{ ...click, subscriberId: ada.id, at: '2026-11-24T09:00:00.000Z' }]);
      expect(await store().clicks.forSubscriber(ada.id)).toEqual([]);
      // Their other choices are untouched.
      expect(await store().preferences.get(ada.id)).toEqual({
        language: null,
        topics: [],
        levels: [],
        onlyMyTopics: false,
      });
      expect(await store().clicks.setReaderCounting(ada.id + 1000, false)).toBe(false);
    });

    it('two stores on one database (two `digest serve`) flushing at once lose no count', async () => {
      await withRawDatabase(kind, async ({ first, second }) => {
        await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            (index % 2 ? second : first).clicks.add([tally({ clicks: 3, prefetched: 1 })], []),
          ),
        );
        expect(await first.clicks.byItem('2026-11-23')).toEqual([
          { itemKey: 'item-a', clicks: 24, prefetched: 8, uniqueReaders: null },
        ]);
      });
    });

    it('the aggregate table holds no subscriber id, address, IP or user agent', async () => {
      await withRawDatabase(kind, async ({ first, query }) => {
        await first.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
        await first.clicks.add([tally({ clicks: 1 }), tally({ itemKey: 'item-b', prefetched: 2 })], []);
        const columns = await query(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'link_clicks' ORDER BY column_name`,
        );
        expect(columns.map((row) => row.column_name)).toEqual([
          'channel',
          'clicks',
          'day',
          'edition_date',
          'item_key',
          'prefetched',
          'revision',
        ]);
        const rows = await query('SELECT * FROM link_clicks');
        expect(rows).toHaveLength(2);
        expect(JSON.stringify(rows)).not.toMatch(/ada|example\.com|\d+\.\d+\.\d+\.\d+|Mozilla/);
      });
    });

    it('per-reader rows: first click kept, unique readers counted, exported and deleted with the reader', async () => {
      const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
      const bo = await store().subscribers.put('bo@example.com', 'bo@example.com', 'confirmed');
      await store().clicks.add(
        [tally({ clicks: 3 }), tally({ itemKey: 'item-b', clicks: 1 })],
        [
          readerClick(ada.id, 'item-a', '2026-11-24T08:00:00.000Z'),
          readerClick(ada.id, 'item-b', '2026-11-24T08:01:00.000Z'),
          readerClick(bo.id, 'item-a', '2026-11-24T09:00:00.000Z'),
          // A reader gone before the batch was written: skipped, the batch still lands.
          readerClick(bo.id + 1000, 'item-a', '2026-11-24T09:00:00.000Z'),
        ],
      );
      await store().clicks.add(
        [tally({ clicks: 1 })],
        [readerClick(ada.id, 'item-a', '2026-11-24T10:00:00.000Z')],
      );
      // Repeats within one batch of reader rows only: the earliest is kept, whatever their order.
      await store().clicks.add(
        [],
        [
          readerClick(bo.id, 'item-b', '2026-11-24T11:30:00.000Z'),
          readerClick(bo.id, 'item-b', '2026-11-24T11:00:00.000Z'),
        ],
      );
      // The same answers while the rows wait in the incoming table and once they are folded.
      for (const folded of [false, true]) {
        if (folded) await foldAll(store());
        expect(await store().clicks.byItem('2026-11-23')).toEqual([
          { itemKey: 'item-a', clicks: 4, prefetched: 0, uniqueReaders: 2 },
          { itemKey: 'item-b', clicks: 1, prefetched: 0, uniqueReaders: 2 },
        ]);
        expect(await store().clicks.forSubscriber(ada.id)).toEqual([
          readerClick(ada.id, 'item-a', '2026-11-24T08:00:00.000Z'),
          readerClick(ada.id, 'item-b', '2026-11-24T08:01:00.000Z'),
        ]);
        expect(await store().clicks.forSubscriber(bo.id)).toEqual([
          readerClick(bo.id, 'item-a', '2026-11-24T09:00:00.000Z'),
          readerClick(bo.id, 'item-b', '2026-11-24T11:00:00.000Z'),
        ]);
      }
      // A later click on an item already stored changes nothing, folded or not.
      await store().clicks.add([], [readerClick(ada.id, 'item-a', '2026-11-24T07:00:00.000Z')]);
      expect((await store().clicks.forSubscriber(ada.id))[0]?.at).toBe('2026-11-24T08:00:00.000Z');
      await store().clicks.deleteSubscriber(ada.id);
      expect(await store().clicks.forSubscriber(ada.id)).toEqual([]);
      // Deleting the subscriber row removes the rest, stored (ON DELETE CASCADE) and incoming (a trigger); the
      // counts stay, naming nobody.
      await store().clicks.add([], [readerClick(bo.id, 'item-c', '2026-11-24T12:00:00.000Z')]);
      await store().subscribers.remove('bo@example.com');
      expect(await store().clicks.forSubscriber(bo.id)).toEqual([]);
      expect(await foldAll(store())).toBe(0);
      expect((await store().clicks.byItem('2026-11-23'))[0]).toMatchObject({
        clicks: 4,
        uniqueReaders: null,
      });
    });

    it('the fold moves every incoming row once, slice by slice, skipping readers who turned counting off', async () => {
      const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
      const bo = await store().subscribers.put('bo@example.com', 'bo@example.com', 'confirmed');
      await store().clicks.setReaderCounting(bo.id, false);
      const items = Array.from({ length: 250 }, (_, index) => `item-${index}`);
      for (let start = 0; start < items.length; start += 100)
        await store().clicks.add(
          [],
          items
            .slice(start, start + 100)
            .flatMap((item) => [readerClick(ada.id, item, AT), readerClick(bo.id, item, AT)]),
        );
      // 500 rows in slices of 64: each slice takes at most 64, until a sweep finds none left.
      const taken: number[] = [];
      for (let slice = await store().clicks.fold(64); slice.left; slice = await store().clicks.fold(64))
        taken.push(slice.taken);
      expect(Math.max(...taken)).toBe(64);
      expect(taken.reduce((sum, slice) => sum + slice, 0)).toBe(500);
      const kept = await store().clicks.forSubscriber(ada.id);
      expect(kept.map((row) => row.itemKey).sort()).toEqual([...items].sort());
      expect(await store().clicks.forSubscriber(bo.id)).toEqual([]);
      // Rows written after the fold reached the table's end are found by the next one.
      await store().clicks.add([], [readerClick(ada.id, 'item-late', AT)]);
      expect(await foldAll(store())).toBe(1);
      expect(await store().clicks.byItem('2026-11-23')).toEqual([]);
      expect(await store().clicks.forSubscriber(ada.id)).toHaveLength(251);
    });

    it('an emptied incoming table gives its pages back once it has held many rows', async () => {
      await withRawDatabase(kind, async ({ first, query }) => {
        const ada = await first.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
        const size = async () =>
          Number((await query(`SELECT pg_relation_size('reader_clicks_incoming') AS bytes`))[0]!.bytes);
        for (let round = 0; round < 3; round++)
          await first.clicks.add(
            [],
            Array.from({ length: 5_000 }, (_, index) => readerClick(ada.id, `item-${round}-${index}`, AT)),
          );
        expect(await size()).toBeGreaterThan(500_000);
        await foldAll(first);
        expect(await size()).toBe(0);
        expect(await first.clicks.forSubscriber(ada.id)).toHaveLength(15_000);
      });
    });

    it('two stores on one database folding at once move each row once', async () => {
      await withRawDatabase(kind, async ({ first, second, query }) => {
        const readers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            first.subscribers.put(`r${index}@example.com`, `r${index}@example.com`, 'confirmed'),
          ),
        );
        await first.clicks.add(
          [],
          readers.flatMap((reader) =>
            Array.from({ length: 50 }, (_, index) => readerClick(reader.id, `item-${index}`, AT)),
          ),
        );
        const [one, two] = await Promise.all([foldAll(first, 40), foldAll(second, 40)]);
        expect(one + two).toBe(1_000);
        expect(await query('SELECT count(*)::int AS n FROM reader_clicks')).toEqual([{ n: 1_000 }]);
        expect(await query('SELECT count(*)::int AS n FROM reader_clicks_incoming')).toEqual([{ n: 0 }]);
      });
    });
  });
}

const AT = '2026-11-24T08:00:00.000Z';

function readerClick(subscriberId: number, itemKey: string, at: string): ReaderClick {
  return { edition: '2026-11-23', revision: 1, itemKey, channel: 'mail', subscriberId, at };
}

/** Folds until a sweep finds nothing left; the rows taken. */
async function foldAll(store: Store, limit = 1_000): Promise<number> {
  let taken = 0;
  for (;;) {
    const slice = await store.clicks.fold(limit);
    taken += slice.taken;
    if (!slice.left) return taken;
  }
}

interface RawDatabase {
  first: Store;
  /** A second store on the same database, as a second `digest serve` instance. */
  second: Store;
  query(text: string): Promise<Record<string, unknown>[]>;
}

/** Two stores on one fresh database, and plain SQL on it, for what the ports do not show. */
async function withRawDatabase(kind: DatabaseKind, fn: (raw: RawDatabase) => Promise<void>): Promise<void> {
  if (kind === 'pglite') {
    const pglite = await freshPglite();
    const first = await openStoreFromPglite(pglite, { closeDatabase: false });
    const second = await openStoreFromPglite(pglite, { closeDatabase: false });
    try {
      await fn({
        first,
        second,
        query: async (text) => (await pglite.query<Record<string, unknown>>(text)).rows,
      });
    } finally {
      await Promise.all([first.close(), second.close()]);
      await pglite.close();
    }
    return;
  }
  const database = await createPostgresDatabase();
  const first = await openStore({ databaseUrl: database.url });
  const second = await openStore({ databaseUrl: database.url });
  try {
    await fn({
      first,
      second,
      query: (text) => onServer(database.url, async (client) => (await client.query(text)).rows),
    });
  } finally {
    await Promise.all([first.close(), second.close()]);
    await database.drop();
  }
}
