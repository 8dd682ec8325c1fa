// Two `digest serve` instances on one PostgreSQL database (two stores, each its own pool and scheduler) whose
// timers fire at the same moment for one scheduled send: exactly one claims it, each reader gets one mail.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import { openStore } from '../../src/store/open-store.js';
import { createSendScheduler } from '../../src/subscribers/send-scheduler.js';
import { createPostgresDatabase, storeDatabases } from '../support/database.js';
import { addReaders, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { startSmtpServer } from '../support/smtp-server.js';

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;
const AT = new Date('2026-05-11T07:00:00Z');
const READERS = ['ada@example.com', 'bo@example.com', 'cy@example.com', 'di@example.com'];

describe.skipIf(postgres.skip !== null)('a scheduled send on two instances sharing PostgreSQL', () => {
  it('is performed once, by one instance, each reader mailed once', async () => {
    const database = await createPostgresDatabase();
    const smtp = await startSmtpServer();
    const stores = [
      await openStore({ databaseUrl: database.url }),
      await openStore({ databaseUrl: database.url }),
    ];
    try {
      await seedEdition(stores[0]!);
      await addReaders(stores[0]!, READERS);
      const set = await stores[0]!.scheduledSends.schedule({
        edition: WEEK,
        sendAt: AT,
        timeZone: 'UTC',
        createdBy: 'cli',
      });
      const schedulers = stores.map((store) => {
        const digest = testDigest(store, smtp.port);
        return createSendScheduler({
          store,
          clock: { now: () => AT },
          log: silentLogger,
          send: (week) => digest.send({ week, allowFlagged: true, allowThin: true }),
        });
      });
      const ran = await Promise.all([...schedulers, ...schedulers].map((scheduler) => scheduler.runDue()));
      expect(ran.flat()).toEqual([set.id]);
      expect([...smtp.counts.entries()].sort()).toEqual(READERS.map((address) => [address, 1]));
      expect(await stores[1]!.scheduledSends.latest(WEEK)).toMatchObject({
        state: 'done',
        outcome: { sent: READERS.length },
      });
    } finally {
      for (const store of stores) await store.close();
      await smtp.close();
      await database.drop();
    }
  }, 60_000);
});
