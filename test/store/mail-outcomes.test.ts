// Store contract: what followed an edition's mail (sent, bounces, unsubscribes until the next edition). Both databases.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';

const FIRST = '2026-03-02';
const NEXT = '2026-03-09';

/** Every queued row of the edition sent, but `refused` readers' mails refused for good. */
async function mail(
  store: Store,
  edition: string,
  { refused = new Set<number>(), notice = 0 }: { refused?: ReadonlySet<number>; notice?: number } = {},
): Promise<void> {
  await store.sendLog.enqueue({ edition, notice });
  const worker = 'test-worker';
  const ids = await store.sendLog.reserveBatch({
    edition,
    notice,
    worker,
    limit: 100,
    deadClaimers: [],
    leaseSeconds: 60,
  });
  for (const subscriberId of ids) {
    const row = { edition, notice, subscriberId, worker };
    await store.sendLog.start(row);
    if (refused.has(subscriberId)) {
      await store.sendLog.recordFailed(row, {
        smtpResponse: '550 no such user',
        retryInMs: null,
        failure: 'permanent',
      });
      continue;
    }
    await store.sendLog.handOver(row);
    await store.sendLog.recordSent(row, { smtpResponse: '250 ok', messageId: `<${subscriberId}@test>` });
  }
}

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`mail outcomes on ${kind}`, () => {
    const store = useTestStore(kind);

    it('counts an edition never mailed as nothing', async () => {
      expect(await store().mailOutcomes.forEdition(FIRST)).toEqual({
        sent: 0,
        bounced: 0,
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
  });
}
