// Store contract: reserving a send's next batch at a list's size — after the worker's last batch (its scan starts
// there), then from the first reader again for rows left behind (a retry due, a gone worker's rows). Both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

const EDITION = '2026-05-04';
const request = (worker: string, limit: number, after = 0) => ({
  edition: EDITION,
  worker,
  limit,
  deadClaimers: [],
  leaseSeconds: 600,
  after,
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`send log reservations on ${kind}`, () => {
    const store = useTestStore(kind);

    it('takes the rows after the last batch, and the ones behind it when looking from the first reader', async () => {
      const ids: number[] = [];
      for (let index = 0; index < 8; index++) {
        const address = `reader${index}@example.com`;
        ids.push((await store().subscribers.put(address, address, 'confirmed')).id);
      }
      await store().sendLog.enqueue(EDITION);
      const first = await store().sendLog.reserveBatch(request('w1', 3));
      expect(first).toEqual(ids.slice(0, 3));
      // The second reader's mail fails for now: it is due again at once, behind the worker's place.
      await store().sendLog.start({ edition: EDITION, subscriberId: ids[1]!, worker: 'w1' });
      await store().sendLog.recordFailed(
        { edition: EDITION, subscriberId: ids[1]!, worker: 'w1' },
        { smtpResponse: '451 try later', retryInMs: 0, failure: 'temporary' },
      );
      const next = await store().sendLog.reserveBatch(request('w1', 3, first.at(-1)));
      expect(next).toEqual(ids.slice(3, 6));
      // Rows another live worker holds are not taken, whichever place the scan starts from.
      expect(await store().sendLog.reserveBatch(request('w2', 10, next.at(-1)))).toEqual(ids.slice(6));
      expect(await store().sendLog.reserveBatch(request('w1', 10, ids.at(-1)))).toEqual([]);
      expect(await store().sendLog.reserveBatch(request('w1', 10))).toEqual([ids[1]]);
    });
  });
}
