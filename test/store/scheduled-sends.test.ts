// Store contract: sends set for a later time, on PGlite and PostgreSQL. One week has one send waiting (a new time
// replaces it), a cancel and a claim exclude each other, and of many claims on one row exactly one wins.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

const AT = new Date('2026-05-11T07:00:00Z');

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`scheduled sends on ${kind}`, () => {
    const store = useTestStore(kind);

    it('keeps one waiting send a week, lists it when due, and cancels it', async () => {
      const sends = store().scheduledSends;
      const first = await sends.schedule({
        edition: '2026-05-04',
        sendAt: AT,
        timeZone: 'Europe/Berlin',
        createdBy: 'ed@example.com',
      });
      expect(first).toMatchObject({
        edition: '2026-05-04',
        state: 'scheduled',
        timeZone: 'Europe/Berlin',
        createdBy: 'ed@example.com',
      });
      expect(first.sendAt.toISOString()).toBe(AT.toISOString());
      const later = new Date(AT.getTime() + 3_600_000);
      const second = await sends.schedule({
        edition: '2026-05-04',
        sendAt: later,
        timeZone: 'UTC',
        createdBy: 'cli',
      });
      expect((await sends.waiting('2026-05-04'))?.id).toBe(second.id);
      expect(await sends.due(AT)).toEqual([]);
      expect((await sends.due(later)).map((send) => send.id)).toEqual([second.id]);

      expect((await sends.cancel('2026-05-04'))?.state).toBe('cancelled');
      expect(await sends.cancel('2026-05-04')).toBeNull();
      expect(await sends.waiting('2026-05-04')).toBeNull();
      expect(await sends.due(later)).toEqual([]);
      expect((await sends.latest('2026-05-04'))?.id).toBe(second.id);
      expect(await sends.latest('2026-05-11')).toBeNull();
    });

    it('lets exactly one of many claims take a send, and none once it is cancelled', async () => {
      const sends = store().scheduledSends;
      const send = await sends.schedule({
        edition: '2026-05-04',
        sendAt: AT,
        timeZone: 'UTC',
        createdBy: 'cli',
      });
      const claims = await Promise.all(Array.from({ length: 6 }, () => sends.claim(send.id)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      // Started: too late to cancel.
      expect(await sends.cancel('2026-05-04')).toBeNull();
      await sends.finish(send.id, { sent: 2 });
      expect(await sends.latest('2026-05-04')).toMatchObject({ state: 'done', outcome: { sent: 2 } });

      const other = await sends.schedule({
        edition: '2026-05-11',
        sendAt: AT,
        timeZone: 'UTC',
        createdBy: 'cli',
      });
      await sends.cancel('2026-05-11');
      expect(await sends.claim(other.id)).toBe(false);
    });
  });
}
