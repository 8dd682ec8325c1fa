// Store contract: subscribers and their statuses. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`subscribers on ${kind}`, () => {
    const store = useTestStore(kind);

    it('a subscribe request makes a pending row once; a second request keeps it as it is', async () => {
      const first = await store().subscribers.request('ada@example.com', 'ada@example.com');
      expect(first).toMatchObject({ address: 'ada@example.com', status: 'pending', bounces: 0 });
      const confirmed = await store().subscribers.setStatus(first.id, 'confirmed', ['pending']);
      expect(confirmed?.status).toBe('confirmed');
      expect(confirmed?.confirmedAt).not.toBeNull();
      const again = await store().subscribers.request('ada@example.com', 'ada@example.com');
      expect(again).toMatchObject({ id: first.id, status: 'confirmed' });
    });

    it('an unsubscribed or bounced address asks to confirm again when it subscribes anew', async () => {
      const row = await store().subscribers.put('bob@example.com', 'bob@example.com', 'confirmed');
      await store().subscribers.setStatus(row.id, 'unsubscribed', ['confirmed', 'pending']);
      expect((await store().subscribers.request('bob@example.com', 'bob@example.com')).status).toBe(
        'pending',
      );
    });

    it('stores a burst of requests in one statement, each as a single request would be, in the order given', async () => {
      const left = await store().subscribers.put('left@example.com', 'left@example.com', 'confirmed');
      await store().subscribers.setStatus(left.id, 'unsubscribed', ['confirmed']);
      const reader = await store().subscribers.put('reader@example.com', 'reader@example.com', 'confirmed');
      const burst = ['new1@example.com', 'left@example.com', 'reader@example.com', 'new2+tag@example.com'];
      const stored = await store().subscribers.requestMany(
        burst.map((address) => ({ address, mailbox: address.replace('+tag', '') })),
      );
      expect(stored.map((row) => [row.address, row.status])).toEqual([
        ['new1@example.com', 'pending'],
        ['left@example.com', 'pending'],
        ['reader@example.com', 'confirmed'],
        ['new2+tag@example.com', 'pending'],
      ]);
      expect(stored[1]!.id).toBe(left.id);
      expect(stored[2]!.id).toBe(reader.id);
      expect(await store().subscribers.requestMany([])).toEqual([]);
    });

    it('moves a status only from the statuses given', async () => {
      const row = await store().subscribers.request('cy@example.com', 'cy@example.com');
      expect(await store().subscribers.setStatus(row.id, 'unsubscribed', ['confirmed'])).toBeNull();
      expect((await store().subscribers.get({ id: row.id }))?.status).toBe('pending');
    });

    it('allows one confirmation mail per mailbox within the window, whatever the +tag', async () => {
      const plain = await store().subscribers.request('dee@example.com', 'dee@example.com');
      const tagged = await store().subscribers.request('dee+news@example.com', 'dee@example.com');
      expect(await store().subscribers.claimConfirmationMail(plain.id, 3600)).toBe(true);
      expect(await store().subscribers.claimConfirmationMail(plain.id, 3600)).toBe(false);
      expect(await store().subscribers.claimConfirmationMail(tagged.id, 3600)).toBe(false);
      expect(await store().subscribers.claimConfirmationMail(tagged.id, 0)).toBe(true);
    });

    it('marks an address bounced at the limit of permanent failures', async () => {
      const row = await store().subscribers.put('eve@example.com', 'eve@example.com', 'confirmed');
      expect((await store().subscribers.recordBounce(row.id, 2))?.status).toBe('confirmed');
      expect(await store().subscribers.recordBounce(row.id, 2)).toMatchObject({
        status: 'bounced',
        bounces: 2,
      });
    });

    it('removing deletes the row; lists page by id and count by status', async () => {
      for (const name of ['f1', 'f2', 'f3'])
        await store().subscribers.put(`${name}@x.org`, `${name}@x.org`, 'confirmed');
      await store().subscribers.request('p@x.org', 'p@x.org');
      expect(await store().subscribers.count()).toEqual({
        pending: 1,
        confirmed: 3,
        unsubscribed: 0,
        bounced: 0,
      });
      const firstPage = await store().subscribers.list({ status: 'confirmed', limit: 2 });
      expect(firstPage.map((row) => row.address)).toEqual(['f1@x.org', 'f2@x.org']);
      const next = await store().subscribers.list({ status: 'confirmed', afterId: firstPage[1]!.id });
      expect(next.map((row) => row.address)).toEqual(['f3@x.org']);
      expect(await store().subscribers.remove('f2@x.org')).toBe(true);
      expect(await store().subscribers.remove('f2@x.org')).toBe(false);
      expect(await store().subscribers.get({ address: 'f2@x.org' })).toBeNull();
    });
  });
}
