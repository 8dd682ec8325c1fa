// Store contract: the operator's reader list (migration 015) — pages by filter, counts, import batches with and
// without asserted consent, removal by row with everything of the reader. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

const row = (address: string, mailbox = address) => ({ address, mailbox });

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`readers on ${kind}`, () => {
    const store = useTestStore(kind);

    it('an import without consent adds pending readers and queues one confirmation mail each, once', async () => {
      const left = await store().subscribers.put('left@example.com', 'left@example.com', 'confirmed');
      await store().subscribers.setStatus(left.id, 'unsubscribed', ['confirmed']);
      await store().subscribers.put('in@example.com', 'in@example.com', 'confirmed');
      const batch = [
        row('new@example.com'),
        row('left@example.com'),
        row('in+tag@example.com', 'in@example.com'),
      ];
      const first = await store().readers.importBatch(batch, { consentBy: null, windowSeconds: 3600 });
      expect(first).toEqual({ outcomes: ['added', 'unsubscribed', 'subscribed'], queued: 1 });
      const added = await store().subscribers.get({ address: 'new@example.com' });
      expect(added).toMatchObject({ status: 'pending', consentBy: null });
      expect((await store().subscribers.get({ id: left.id }))?.status).toBe('unsubscribed');
      const again = await store().readers.importBatch(batch, { consentBy: null, windowSeconds: 3600 });
      expect(again).toEqual({ outcomes: ['subscribed', 'unsubscribed', 'subscribed'], queued: 0 });
      expect((await store().outbox.claim('w', 10, 60)).map((mail) => [mail.kind, mail.subscriberId])).toEqual(
        [['confirmation', added!.id]],
      );
    });

    it('an import with asserted consent confirms new and pending readers and records who and when', async () => {
      const pending = await store().subscribers.request('wait@example.com', 'wait@example.com');
      const result = await store().readers.importBatch([row('ok@example.com'), row('wait@example.com')], {
        consentBy: 'ed@example.com',
        windowSeconds: 3600,
      });
      expect(result).toEqual({ outcomes: ['added', 'confirmed'], queued: 0 });
      for (const address of ['ok@example.com', 'wait@example.com']) {
        const reader = await store().subscribers.get({ address });
        expect(reader).toMatchObject({ status: 'confirmed', consentBy: 'ed@example.com' });
        expect(reader?.consentAt).not.toBeNull();
        expect(reader?.confirmedAt).not.toBeNull();
      }
      expect((await store().subscribers.get({ id: pending.id }))?.status).toBe('confirmed');
      expect(await store().outbox.claim('w', 10, 60)).toEqual([]);
    });

    it('pages newest first by filter: address search, status, complaint and language, with counts', async () => {
      const ids: number[] = [];
      for (let index = 0; index < 7; index++) {
        const reader = await store().subscribers.put(
          `r${index}@example.com`,
          `r${index}@example.com`,
          'confirmed',
        );
        ids.push(reader.id);
      }
      await store().subscribers.put('Other@Example.org', 'other@example.org', 'pending');
      await store().subscribers.recordComplaint(ids[1]!);
      await store().preferences.set(ids[2]!, { language: 'de', topics: [], levels: [], onlyMyTopics: false });
      const first = await store().readers.find({ search: 'EXAMPLE.COM', limit: 3 });
      expect(first.map((reader) => reader.id)).toEqual([ids[6], ids[5], ids[4]]);
      const second = await store().readers.find({ search: 'example.com', limit: 3, before: ids[4]! });
      expect(second.map((reader) => reader.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect((await store().readers.find({ status: 'pending' })).map((r) => r.address)).toEqual([
        'Other@Example.org',
      ]);
      expect((await store().readers.find({ complained: true })).map((r) => r.id)).toEqual([ids[1]]);
      expect((await store().readers.find({ language: 'de' })).map((r) => r.id)).toEqual([ids[2]]);
      expect(await store().readers.find({ search: "%' OR 1=1 --" })).toEqual([]);
      expect(await store().readers.counts()).toEqual({
        pending: 1,
        confirmed: 6,
        unsubscribed: 1,
        bounced: 0,
        complained: 1,
      });
    });

    it('removes a reader by row with their preferences, mails and clicks', async () => {
      const reader = await store().subscribers.put('gone@example.com', 'gone@example.com', 'confirmed');
      await store().preferences.set(reader.id, {
        language: null,
        topics: [],
        levels: [],
        onlyMyTopics: false,
      });
      await store().clicks.add(
        [],
        [
          {
            edition: '2026-05-04',
            revision: 1,
            itemKey: 'k',
            channel: 'mail',
            subscriberId: reader.id,
            at: '2026-05-05T09:00:00.000Z',
          },
        ],
      );
      expect(await store().clicks.forSubscriber(reader.id)).toHaveLength(1);
      expect(await store().readers.removeById(reader.id)).toBe(true);
      expect(await store().subscribers.get({ id: reader.id })).toBeNull();
      expect(await store().clicks.forSubscriber(reader.id)).toEqual([]);
      expect(await store().preferences.get(reader.id)).toBeNull();
      expect(await store().readers.removeById(reader.id)).toBe(false);
    });
  });
}
