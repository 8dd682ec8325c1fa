// Store contract: a reader's preferences, stored beside their row, exported and deleted with it. Both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';
import { mailEdition } from '../support/mailed-readers.js';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`reader preferences on ${kind}`, () => {
    const store = useTestStore(kind);

    it("stores, replaces and reads back a reader's choices; none stored reads as null", async () => {
      const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
      expect(await store().preferences.get(ada.id)).toBeNull();
      const chosen = {
        language: 'de',
        topics: ['agents', 'code'],
        levels: ['Accessible' as const],
        onlyMyTopics: true,
      };
      expect(await store().preferences.set(ada.id, chosen)).toBe(true);
      expect(await store().preferences.get(ada.id)).toEqual(chosen);
      const changed = { language: null, topics: ['safety'], levels: [], onlyMyTopics: false };
      expect(await store().preferences.set(ada.id, changed)).toBe(true);
      expect(await store().preferences.get(ada.id)).toEqual(changed);
      // No row for a subscriber that does not exist: nothing stored, and it says so.
      expect(await store().preferences.set(ada.id + 1000, changed)).toBe(false);
    });

    it('reads the choices of many readers at once, only of those who made some', async () => {
      const ada = await store().subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
      const bo = await store().subscribers.put('bo@example.com', 'bo@example.com', 'confirmed');
      const choice = { language: 'de', topics: ['agents'], levels: [], onlyMyTopics: false };
      await store().preferences.set(ada.id, choice);
      expect(await store().preferences.many([ada.id, bo.id])).toEqual([choice]);
      expect(await store().preferences.many([])).toEqual([]);
    });

    it("exports the reader's outbox mails (kind, state, attempts, times) and no body or link", async () => {
      const { subscribers } = await store().outbox.requestSubscriptions(
        [{ address: 'cy@example.com', mailbox: 'cy@example.com' }],
        3600,
      );
      const cy = subscribers[0]!;
      expect(await store().outbox.confirmSubscription(cy.id, 1, true)).toMatchObject({ status: 'confirmed' });
      const data = await store().preferences.exportSubscriber('cy@example.com');
      expect(data?.outbox).toEqual([
        expect.objectContaining({ kind: 'confirmation', generation: 1, attempts: 0 }),
        expect.objectContaining({
          kind: 'welcome',
          generation: 1,
          state: 'queued',
          attempts: 0,
          handedOverAt: null,
        }),
      ]);
      for (const mail of data?.outbox ?? []) {
        expect(Object.keys(mail).sort()).toEqual([
          'attempts',
          'createdAt',
          'generation',
          'handedOverAt',
          'kind',
          'state',
          'updatedAt',
        ]);
        expect(Number.isNaN(Date.parse(mail.createdAt))).toBe(false);
      }
      // A reader with no mail queued exports an empty list, not a missing field.
      await store().subscribers.put('dee@example.com', 'dee@example.com', 'confirmed');
      expect((await store().preferences.exportSubscriber('dee@example.com'))?.outbox).toEqual([]);
    });

    it("exports a reader's row, preferences and send log; deleting the reader deletes them all", async () => {
      const bob = await store().subscribers.put('bob@example.com', 'bob@example.com', 'confirmed');
      await store().preferences.set(bob.id, {
        language: 'de',
        topics: ['agents'],
        levels: [],
        onlyMyTopics: false,
      });
      await store().editions.save({
        date: '2026-05-04',
        name: 'D',
        title: 'T',
        intro: 'I',
        writer: 'extractive',
        items: [],
        sources: [],
      });
      await store().sendLog.enqueue('2026-05-04');
      const data = await store().preferences.exportSubscriber('bob@example.com');
      expect(data).toMatchObject({
        subscriber: { address: 'bob@example.com', status: 'confirmed', complainedAt: null },
        preferences: { language: 'de', topics: ['agents'] },
        sendLog: [{ edition: '2026-05-04', revision: 1, notice: 0, state: 'queued', attempts: 0 }],
      });
      // Mailed, then the notice of revision 2: each row names the revision it carried and the notice it is.
      await mailEdition(store(), '2026-05-04');
      await mailEdition(store(), '2026-05-04', { notice: 2 });
      const mailed = await store().preferences.exportSubscriber('bob@example.com');
      expect(mailed?.sendLog.map(({ revision, notice, state }) => ({ revision, notice, state }))).toEqual([
        { revision: 1, notice: 0, state: 'sent' },
        { revision: 2, notice: 2, state: 'sent' },
      ]);
      expect(await store().preferences.exportSubscriber('nobody@example.com')).toBeNull();
      expect(await store().subscribers.remove('bob@example.com')).toBe(true);
      expect(await store().preferences.get(bob.id)).toBeNull();
      expect(await store().preferences.exportSubscriber('bob@example.com')).toBeNull();
    });
  });
}
