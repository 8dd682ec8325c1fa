// Store contract: a worker's mails started, handed over and settled in one statement each, each row on its own
// condition; and the count of mails sent the stats read, kept with the rows by the database (migration 020) through
// sends, a row lost to another worker and a removed reader. Both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

const EDITION = '2026-05-04';
const held = (worker: string, subscriberIds: number[]) => ({ edition: EDITION, worker, subscriberIds });
const sent = (id: number) => ({ smtpResponse: '250 ok', messageId: `<${id}@example.org>` });

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`send log moves of many rows on ${kind}`, () => {
    const store = useTestStore(kind);

    async function readers(count: number): Promise<number[]> {
      const ids: number[] = [];
      for (let index = 0; index < count; index++) {
        const address = `reader${index}@example.com`;
        ids.push((await store().subscribers.put(address, address, 'confirmed')).id);
      }
      return ids;
    }

    it('moves only the rows the worker holds, skips a reader who left, and counts each mail sent once', async () => {
      const ids = await readers(5);
      await store().sendLog.enqueue(EDITION);
      const request = { edition: EDITION, limit: 4, deadClaimers: [], leaseSeconds: 600 };
      expect(await store().sendLog.reserveBatch({ ...request, worker: 'w1' })).toEqual(ids.slice(0, 4));
      expect(await store().sendLog.reserveBatch({ ...request, worker: 'w2' })).toEqual([ids[4]]);
      await store().subscribers.setStatus(ids[3]!, 'unsubscribed', ['confirmed']);
      // ids[4] is w2's: w1's statement leaves it alone.
      const started = await store().sendLog.startMany(held('w1', [...ids.slice(0, 4), ids[4]!]), 1);
      expect([...started.keys()].sort()).toEqual(ids.slice(0, 3));
      expect(started.get(ids[0]!)).toMatchObject({ address: 'reader0@example.com', attempt: 1 });
      expect([...(await store().sendLog.handOverMany(held('w1', ids)))].sort()).toEqual(ids.slice(0, 3));
      await store().sendLog.recordSentMany(held('w1', ids.slice(0, 3)), ids.slice(0, 3).map(sent));
      const counts = await store().sendLog.counts(EDITION);
      expect(counts).toMatchObject({ sent: 3, skipped: 1, queued: 1 });
      expect((await store().mailOutcomes.forEdition(EDITION)).sent).toBe(3);
      // The same answer again changes nothing: the rows are no longer "sending".
      await store().sendLog.recordSentMany(held('w1', ids.slice(0, 3)), ids.slice(0, 3).map(sent));
      expect((await store().mailOutcomes.forEdition(EDITION)).sent).toBe(3);
      // A removed reader's rows go with them, and so does their mail from the count.
      expect(await store().readers.removeById(ids[0]!)).toBe(true);
      expect((await store().mailOutcomes.forEdition(EDITION)).sent).toBe(2);
      expect((await store().sendLog.counts(EDITION)).sent).toBe(2);
    });
  });
}
