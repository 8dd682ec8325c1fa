// Store contract: the outbox (migration 007) — mails queued in the request's transaction, claimed, handed over and
// settled; a dead worker's rows taken over or marked uncertain; subscriptions counted by generation. Both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

const request = (address: string, mailbox = address) => ({ address, mailbox });

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`outbox on ${kind}`, () => {
    const store = useTestStore(kind);

    it('queues one confirmation per inbox with the stored requests, and none again within the window', async () => {
      const first = await store().outbox.requestSubscriptions(
        [
          request('ada@example.com'),
          request('ada+news@example.com', 'ada@example.com'),
          request('bob@example.com'),
        ],
        3600,
      );
      expect(first.subscribers.map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);
      expect(first.queued).toBe(2);
      const again = await store().outbox.requestSubscriptions([request('ada@example.com')], 3600);
      expect(again.queued).toBe(0);
      const claimed = await store().outbox.claim('w1', 10, 60);
      expect(claimed.map((mail) => [mail.kind, mail.generation, mail.attempts])).toEqual([
        ['confirmation', 1, 1],
        ['confirmation', 1, 1],
      ]);
      // Claimed rows are this worker's: another finds nothing.
      expect(await store().outbox.claim('w2', 10, 60)).toEqual([]);
      expect(await store().outbox.health()).toMatchObject({ waiting: 2, retrying: 0 });
    });

    it('a reader who left and comes back is a new subscription (generation 2) with a new confirmation', async () => {
      const { subscribers } = await store().outbox.requestSubscriptions([request('ada@example.com')], 3600);
      const ada = subscribers[0]!;
      await store().subscribers.setStatus(ada.id, 'unsubscribed', ['pending']);
      const back = await store().outbox.requestSubscriptions([request('ada@example.com')], 3600);
      expect(back.queued).toBe(1);
      expect(back.subscribers[0]).toMatchObject({ status: 'pending', generation: 2 });
      // Confirming the first subscription does nothing; the second one confirms, with its welcome queued.
      expect(await store().outbox.confirmSubscription(ada.id, 1, true)).toBeNull();
      expect(await store().outbox.confirmSubscription(ada.id, 2, true)).toMatchObject({
        status: 'confirmed',
      });
      const mails = await store().outbox.claim('w', 10, 60);
      expect(mails.map((mail) => [mail.kind, mail.generation])).toEqual([
        ['confirmation', 1],
        ['confirmation', 2],
        ['welcome', 2],
      ]);
    });

    it('settles: sent, retried later with the error kept, given up with a reason, shown per reader', async () => {
      const { subscribers } = await store().outbox.requestSubscriptions(
        [request('a@example.com'), request('b@example.com'), request('c@example.com')],
        3600,
      );
      const [a, b, c] = await store().outbox.claim('w', 10, 60);
      await store().outbox.settle(a!.id, 'w', { state: 'sent', response: '250 ok' });
      await store().outbox.settle(b!.id, 'w', {
        state: 'queued',
        error: 'connect ECONNREFUSED',
        retryInMs: 60_000,
      });
      await store().outbox.settle(c!.id, 'w', {
        state: 'failed',
        failure: 'permanent',
        error: '550 no such user',
      });
      // Another worker's settle changes nothing.
      await store().outbox.settle(a!.id, 'other', { state: 'failed', failure: 'permanent', error: 'x' });
      expect(await store().outbox.health()).toMatchObject({ waiting: 1, retrying: 1 });
      // The retry is not due yet.
      expect(await store().outbox.claim('w', 10, 60)).toEqual([]);
      const problems = await store().outbox.mailProblems(subscribers.map((row) => row.id));
      expect(problems.map((problem) => [problem.subscriberId, problem.state, problem.lastError])).toEqual([
        [subscribers[1]!.id, 'queued', 'connect ECONNREFUSED'],
        [subscribers[2]!.id, 'failed', '550 no such user'],
      ]);
    });

    it("a dead worker's row is taken over after the lease, or marked uncertain when its dot was released", async () => {
      await store().outbox.requestSubscriptions([request('a@example.com'), request('b@example.com')], 3600);
      const [a, b] = await store().outbox.claim('dead', 10, 60);
      expect(await store().outbox.handOver(b!.id, 'dead')).toBe(true);
      expect(await store().outbox.handOver(b!.id, 'someone-else')).toBe(false);
      // Within the lease nothing moves; with a lease of 0 s (the worker is long gone) both are looked at again.
      expect(await store().outbox.claim('next', 10, 60)).toEqual([]);
      const taken = await store().outbox.claim('next', 10, 0);
      expect(taken.map((mail) => [mail.id, mail.attempts])).toEqual([[a!.id, 2]]);
      expect((await store().outbox.mailProblems([b!.subscriberId]))[0]).toMatchObject({ state: 'uncertain' });
      // The dead worker's late hand-over of the taken row is refused.
      expect(await store().outbox.handOver(a!.id, 'dead')).toBe(false);
    });

    it('removing a subscriber removes their mails', async () => {
      await store().outbox.requestSubscriptions([request('gone@example.com')], 3600);
      expect(await store().subscribers.remove('gone@example.com')).toBe(true);
      expect(await store().outbox.claim('w', 10, 60)).toEqual([]);
    });
  });
}
