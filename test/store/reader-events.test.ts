// A reader's status history as recorded events (migration 019): every door that changes a status writes how it
// happened with it, the export carries the history, a removal deletes it, and readers stored before the migration
// get theirs from the times on their row — on PGlite and PostgreSQL.
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteDatabase } from '../../src/store/database.js';
import { migrate, migrateTo } from '../../src/store/migrate.js';
import { openStoreFromPglite } from '../../src/store/open-store.js';
import type { Database } from '../../src/store/schema.js';
import { freshPglite, storeDatabases, useTestStore } from '../support/database.js';

const WINDOW = 3600;
const request = (address: string) => ({ address, mailbox: address });

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`reader status events on ${kind}`, () => {
    const store = useTestStore(kind);
    const history = async (address: string) =>
      ((await store().preferences.exportSubscriber(address))?.statusHistory ?? []).map((event) => [
        event.status,
        event.how,
      ]);

    it("a reader's own doors: the form, the confirm link, the unsubscribe link, the form again", async () => {
      const [ada] = (await store().outbox.requestSubscriptions([request('ada@example.com')], WINDOW))
        .subscribers;
      // A second request of a pending reader changes nothing, and records nothing.
      await store().outbox.requestSubscriptions([request('ada@example.com')], WINDOW);
      await store().outbox.confirmSubscription(ada!.id, 1, false);
      await store().subscribers.setStatus(ada!.id, 'unsubscribed', ['pending', 'confirmed']);
      await store().subscribers.requestMany([request('ada@example.com')]);
      expect(await history('ada@example.com')).toEqual([
        ['pending', 'subscribe form'],
        ['confirmed', 'confirm link'],
        ['unsubscribed', 'unsubscribe link'],
        ['pending', 'subscribe form'],
      ]);
      const events = (await store().preferences.exportSubscriber('ada@example.com'))!.statusHistory;
      expect(events.map((event) => event.at)).toEqual([...events.map((event) => event.at)].sort());
    });

    it('delivery reports: a bounce at the limit, a complaint (and a repeated one recorded once)', async () => {
      const [bea, cy] = await store().subscribers.requestMany([
        request('bea@example.com'),
        request('cy@example.com'),
      ]);
      await store().subscribers.recordBounce(bea!.id, 2);
      await store().subscribers.recordBounce(bea!.id, 2);
      await store().subscribers.recordBounce(bea!.id, 2);
      await store().subscribers.recordComplaint(cy!.id);
      await store().subscribers.recordComplaint(cy!.id);
      expect(await history('bea@example.com')).toEqual([
        ['pending', 'subscribe form'],
        ['bounced', 'bounce (permanent delivery failures)'],
      ]);
      expect(await history('cy@example.com')).toEqual([
        ['pending', 'subscribe form'],
        ['unsubscribed', 'complaint (a spam report through their mail provider)'],
      ]);
    });

    it('imports and adds name who did them and who asserted consent', async () => {
      const options = { windowSeconds: WINDOW };
      await store().readers.importBatch([request('dee@example.com'), request('eve@example.com')], {
        ...options,
        consentBy: null,
        source: { kind: 'import', by: 'cli:ops' },
      });
      await store().readers.importBatch([request('eve@example.com'), request('fay@example.com')], {
        ...options,
        consentBy: 'editor@example.org',
        source: { kind: 'add', by: 'editor@example.org' },
      });
      expect(await history('dee@example.com')).toEqual([['pending', 'import by cli:ops']]);
      expect(await history('eve@example.com')).toEqual([
        ['pending', 'import by cli:ops'],
        ['confirmed', 'add, consent asserted by editor@example.org'],
      ]);
      expect(await history('fay@example.com')).toEqual([
        ['confirmed', 'add, consent asserted by editor@example.org'],
      ]);
    });

    it('a removal deletes the history with the reader', async () => {
      const [gus] = await store().subscribers.requestMany([request('gus@example.com')]);
      await store().subscribers.setStatus(gus!.id, 'confirmed', ['pending']);
      expect(await store().backup.nonEmptyTables()).toContain('reader_status_events');
      expect(await store().readers.removeById(gus!.id)).toBe(true);
      expect(await store().backup.nonEmptyTables()).not.toContain('reader_status_events');
    });
  });
}

describe('readers stored before migration 019 (PGlite)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('get their history from the times on their row, each marked so', async () => {
    const pglite = await freshPglite();
    cleanups.push(() => pglite.close());
    const db: Kysely<Database> = pgliteDatabase(pglite, { ownsDatabase: false });
    cleanups.push(() => db.destroy());
    // The template emptied to before its first migration, then migrated up to 018 only (whatever came after 019).
    const { rows } = await pglite.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables
       WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'`,
    );
    await pglite.exec(`DROP TABLE ${rows.map((row) => row.name).join(', ')} CASCADE`);
    await pglite.exec('DELETE FROM kysely_migration');
    await migrateTo(db, '018-scheduled-sends');
    await sql`
      INSERT INTO subscribers (address, mailbox, status, created_at, confirmed_at, unsubscribed_at, complained_at,
        consent_by, consent_at) VALUES
        ('left@example.com', 'left@example.com', 'unsubscribed', '2026-03-01', '2026-03-02', '2026-03-09', NULL, NULL, NULL),
        ('moved@example.com', 'moved@example.com', 'confirmed', '2026-03-01', '2026-03-01', NULL, NULL, 'cli:ops', '2026-03-01'),
        ('spam@example.com', 'spam@example.com', 'unsubscribed', '2026-03-01', '2026-03-02', '2026-03-05', '2026-03-05', NULL, NULL),
        ('gone@example.com', 'gone@example.com', 'bounced', '2026-03-01', '2026-03-02', NULL, NULL, NULL, NULL)`.execute(
      db,
    );
    expect((await migrate(db)).applied).toContain('019-reader-status-events');
    const store = await openStoreFromPglite(pglite, { closeDatabase: false });
    cleanups.push(() => store.close());
    const history = async (address: string) =>
      (await store.preferences.exportSubscriber(address))!.statusHistory.map((event) => [
        event.status,
        event.how,
      ]);
    const FROM_ROW = ' (from the times on the reader row)';
    expect(await history('left@example.com')).toEqual([
      ['pending', `subscribed${FROM_ROW}`],
      ['confirmed', `confirm link${FROM_ROW}`],
      ['unsubscribed', `unsubscribe link${FROM_ROW}`],
    ]);
    expect(await history('moved@example.com')).toEqual([
      ['confirmed', `consent asserted by cli:ops${FROM_ROW}`],
    ]);
    expect(await history('spam@example.com')).toEqual([
      ['pending', `subscribed${FROM_ROW}`],
      ['confirmed', `confirm link${FROM_ROW}`],
      ['unsubscribed', `complaint${FROM_ROW}`],
    ]);
    expect((await history('gone@example.com')).at(-1)).toEqual(['bounced', `bounce${FROM_ROW}`]);
  });
});
