// The check behind "every upgrade path": a database at migration level N holding the rows that level's program wrote,
// opened by this program, keeps every row and reads back through the store. Shared by the PGlite run (quick) and
// the PostgreSQL run (test/e2e/backup.process.test.ts).
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { tableCounts, tableShapes } from '../../src/store/_catalog.js';
import type { Store } from '../../src/store/types.js';
import { seedUpTo } from '../support/level-rows.js';

/** Seeds `db` (migrated to `level`) and returns the count per table, before the upgrade. */
export async function seedLevel(db: Kysely<unknown>, level: string): Promise<Record<string, number>> {
  await seedUpTo(db, level);
  return tableCounts(
    db,
    (await tableShapes(db)).map((table) => table.name),
  );
}

/** After the upgrade: every table of that level holds what it held, and the rows read through the store. */
export async function expectLevelKept(
  store: Store,
  level: string,
  before: Record<string, number>,
): Promise<void> {
  // Migration 011 gives each edition published before it its first revision.
  const published = ['001-initial', '005-send-failures'].filter((seeded) => seeded <= level).length;
  const backfilled = level < '011-revisions' ? { edition_revisions: published } : {};
  const counts = await store.backup.read({}, async (snapshot) => {
    for await (const _batch of snapshot.batches());
    return snapshot.counts;
  });
  const expected = { ...before, ...backfilled };
  const after = Object.fromEntries(Object.keys(expected).map((table) => [table, counts[table]]));
  expect(after).toEqual(expected);
  if (level >= '002-subscribers') {
    // Readers in every status, as many as the level's rows hold.
    const statuses = await store.subscribers.count();
    expect(Object.values(statuses).reduce((sum, count) => sum + count, 0)).toBe(before.subscribers);
    for (const status of ['pending', 'confirmed', 'unsubscribed', 'bounced'] as const)
      expect(statuses[status], status).toBeGreaterThan(0);
    expect((await store.subscribers.get({ address: 'confirmed@example.com' }))?.status).toBe('confirmed');
    // The reader who left has a status history: recorded from 019 on, read from the times on their row before.
    const left = await store.preferences.exportSubscriber('left@example.com');
    expect(new Set(left?.statusHistory.map((event) => event.status))).toEqual(
      new Set(['pending', 'confirmed', 'unsubscribed']),
    );
  }
  expect(await store.editions.list()).toContainEqual(
    expect.objectContaining({ date: '2026-04-27', title: 'Published edition' }),
  );
  expect((await store.revisions.list('2026-04-27')).map((revision) => revision.revision)).toEqual([1]);
  expect(await store.items.get('arxiv:2604.00001')).toMatchObject({
    title: 'A paper',
    authors: ['Ada Lovelace'],
  });
  expect(await store.decisions.get('2026-05-04')).toEqual(
    new Map([
      ['arxiv:2604.00001', 'skip'],
      ['url:https://blog.example.com/a', 'pin'],
    ]),
  );
  if (level >= '003-editors-desk')
    expect((await store.editors.list()).map((editor) => editor.email)).toEqual(['editor@example.com']);
  if (level >= '011-revisions') expect((await store.revisions.list('2026-04-13')).length).toBe(2);
  if (level >= '012-link-clicks')
    expect((await store.clicks.byItem('2026-04-27'))[0]).toMatchObject({ clicks: 12 });
  // Rows still incoming when the program stopped are folded by the next, as the one that wrote them would have.
  if (level >= '021-reader-clicks-incoming') {
    const readers = before.reader_clicks_incoming ?? 0;
    expect(readers).toBeGreaterThan(0);
    let taken = 0;
    for (let slice = await store.clicks.fold(100); slice.left; slice = await store.clicks.fold(100))
      taken += slice.taken;
    expect(taken).toBe(readers);
  }
}
