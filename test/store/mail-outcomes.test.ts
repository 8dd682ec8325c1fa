// Store contract: what followed an edition's mail (sent, bounces, complaints apart from unsubscribes, until the next
// edition). Both databases, and rows written before migration 014 (no complaint time) read as they did.
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, pgliteDatabase, postgresDatabase } from '../../src/store/database.js';
import { mailOutcomesStore } from '../../src/store/mail-outcomes.js';
import { migrate } from '../../src/store/migrate.js';
import type { Database } from '../../src/store/schema.js';
import { subscribersStore } from '../../src/store/subscribers.js';
import {
  createPostgresDatabase,
  type DatabaseKind,
  freshPglite,
  storeDatabases,
  useTestStore,
} from '../support/database.js';
import { mailEdition as mail } from '../support/mailed-readers.js';

const FIRST = '2026-03-02';
const NEXT = '2026-03-09';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`mail outcomes on ${kind}`, () => {
    const store = useTestStore(kind);

    it('counts an edition never mailed as nothing', async () => {
      expect(await store().mailOutcomes.forEdition(FIRST)).toEqual({
        sent: 0,
        bounced: 0,
        complained: 0,
        unsubscribed: 0,
        firstMailAt: null,
      });
    });

    it('counts sent mails, bounces and the unsubscribes before the next edition, not after', async () => {
      const readers = [];
      for (const name of ['ada', 'bob', 'cy', 'dee', 'eve'])
        readers.push(
          await store().subscribers.put(`${name}@example.com`, `${name}@example.com`, 'confirmed'),
        );
      const [ada, bob, cy, dee, eve] = readers.map((reader) => reader.id) as [
        number,
        number,
        number,
        number,
        number,
      ];
      await mail(store(), FIRST, { refused: new Set([dee]) });
      // A correction notice of revision 2 to the same readers is not another mail of the edition.
      await mail(store(), FIRST, { notice: 2 });
      // After the first edition: cy leaves, bob's provider reports a hard bounce.
      await store().subscribers.setStatus(cy, 'unsubscribed', ['confirmed']);
      await store().subscribers.recordBounce(bob, 1);
      expect(await store().mailOutcomes.forEdition(FIRST)).toMatchObject({
        sent: 4,
        bounced: 2,
        unsubscribed: 1,
      });
      await mail(store(), NEXT);
      // ada, dee (refused once, not reported bounced) and eve get the next one; eve's leaving follows the next edition, not the first.
      await store().subscribers.setStatus(eve, 'unsubscribed', ['confirmed']);
      const first = await store().mailOutcomes.forEdition(FIRST);
      expect(first).toMatchObject({ sent: 4, bounced: 2, unsubscribed: 1 });
      expect(first.firstMailAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await store().mailOutcomes.forEdition(NEXT)).toMatchObject({
        sent: 3,
        bounced: 0,
        unsubscribed: 1,
      });
      expect(ada).toBeGreaterThan(0);
    });

    it('a complaint counts once, as a complaint and not as an unsubscribe; a reader already gone still complains', async () => {
      const reader = (name: string) =>
        store().subscribers.put(`${name}@example.com`, `${name}@example.com`, 'confirmed');
      const [ada, bob, cy, dee] = [
        await reader('ada'),
        await reader('bob'),
        await reader('cy'),
        await reader('dee'),
      ];
      await mail(store(), FIRST);
      // ada complains (reported twice by her provider); bob unsubscribes; cy unsubscribes, then complains.
      const complained = await store().subscribers.recordComplaint(ada.id);
      expect(complained).toMatchObject({ status: 'unsubscribed' });
      expect(complained!.complainedAt).toBe(complained!.unsubscribedAt);
      expect(await store().subscribers.recordComplaint(ada.id)).toMatchObject({
        complainedAt: complained!.complainedAt,
      });
      await store().subscribers.setStatus(bob.id, 'unsubscribed', ['confirmed']);
      await store().subscribers.setStatus(cy.id, 'unsubscribed', ['confirmed']);
      const late = await store().subscribers.recordComplaint(cy.id);
      expect(late).toMatchObject({ status: 'unsubscribed' });
      expect(late!.complainedAt).not.toBeNull();
      expect(await store().mailOutcomes.forEdition(FIRST)).toMatchObject({
        sent: 4,
        bounced: 0,
        complained: 2,
        unsubscribed: 2,
      });
      expect(await store().mailOutcomes.complaints()).toBe(2);
      expect((await store().subscribers.get({ id: dee.id }))?.complainedAt).toBeNull();
      // Gone with the reader: nothing of a deleted reader's complaint stays.
      await store().subscribers.remove('ada@example.com');
      expect(await store().mailOutcomes.complaints()).toBe(1);
    });
  });
}

/** A database migrated through 013 only, as this program's release before complaints were told apart. */
async function databaseBefore014(kind: DatabaseKind): Promise<Db> {
  let db: Db;
  if (kind === 'pglite') {
    const pglite = await freshPglite();
    db = pgliteDatabase(pglite, { ownsDatabase: false });
    cleanups.push(() => pglite.close());
  } else {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    db = await postgresDatabase(database.url);
    await migrate(db);
  }
  cleanups.push(() => db.destroy());
  await sql`ALTER TABLE subscribers DROP COLUMN complained_at`.execute(db);
  // And what came after it: 015's three tables, 016's consent columns and index, 017's indexes, 018's table, 019's,
  // 020's index, count table and its triggers, 021's table and trigger.
  await sql`DROP TABLE site_generations, rate_limit_buckets, scheduled_runs, scheduled_sends`.execute(db);
  await sql`DROP TABLE reader_status_events`.execute(db);
  await sql`DROP INDEX subscriber_preferences_language`.execute(db);
  await sql`ALTER TABLE subscribers DROP COLUMN consent_by, DROP COLUMN consent_at`.execute(db);
  await sql`DROP INDEX send_log_due, send_log_first_mail, send_log_reader`.execute(db);
  await sql`DROP TABLE send_log_sent`.execute(db);
  await sql`DROP FUNCTION send_log_count_sent CASCADE`.execute(db);
  await sql`DROP TABLE reader_clicks_incoming`.execute(db);
  await sql`DROP FUNCTION reader_clicks_incoming_forget CASCADE`.execute(db);
  await sql`DELETE FROM kysely_migration WHERE name >= '014-complaints'`.execute(db);
  return db;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`mail outcomes of rows written before migration 014, on ${kind}`, () => {
    it('an unsubscribe from before 014 still reads as an unsubscribe; a complaint after the upgrade as a complaint', async () => {
      const db: Kysely<Database> = await databaseBefore014(kind);
      // Rows as the release before 014 wrote them: ada left (a complaint then was an unsubscribe too), bob stays.
      await sql`
        INSERT INTO subscribers (address, mailbox, status, unsubscribed_at) VALUES
          ('ada@example.com', 'ada@example.com', 'unsubscribed', now()),
          ('bob@example.com', 'bob@example.com', 'confirmed', NULL)`.execute(db);
      await sql`
        INSERT INTO send_log (edition_date, subscriber_id, state, created_at)
        SELECT ${FIRST}::date, id, 'sent', now() - interval '1 hour' FROM subscribers`.execute(db);
      expect(await migrate(db)).toEqual({
        applied: [
          '014-complaints',
          '015-many-instances',
          '016-reader-list',
          '017-send-at-size',
          '018-scheduled-sends',
          '019-reader-status-events',
          '020-readers-at-size',
          '021-reader-clicks-incoming',
        ],
      });
      const outcomes = mailOutcomesStore(db);
      expect(await outcomes.forEdition(FIRST)).toMatchObject({ sent: 2, complained: 0, unsubscribed: 1 });
      const bob = await subscribersStore(db).get({ address: 'bob@example.com' });
      expect(bob?.complainedAt).toBeNull();
      await subscribersStore(db).recordComplaint(bob!.id);
      expect(await outcomes.forEdition(FIRST)).toMatchObject({ sent: 2, complained: 1, unsubscribed: 1 });
    });
  });
}
