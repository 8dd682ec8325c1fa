// The performer of scheduled sends on a fake clock: nothing before its time; at its time two schedulers on one
// store (two instances, or a tick and a restart) race and the send runs once — each reader one mail through the
// real send log and a loopback SMTP server; a cancelled send never runs; a failed send is recorded, not retried.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports.js';
import { createSendScheduler } from '../../src/subscribers/send-scheduler.js';
import { useTestStore } from '../support/database.js';
import { addReaders, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const AT = new Date('2026-05-11T07:00:00Z');
const READERS = ['ada@example.com', 'bo@example.com', 'cy@example.com'];

describe('scheduled sends, performed when due', () => {
  const store = useTestStore('pglite');
  let smtp: TestSmtpServer;
  let now = new Date(AT.getTime() - 60_000);
  const clock = { now: () => now };

  beforeEach(async () => {
    smtp = await startSmtpServer();
    await seedEdition(store());
    await addReaders(store(), READERS);
  });
  afterEach(() => smtp.close());

  const scheduler = () => {
    const digest = testDigest(store(), smtp.port);
    return createSendScheduler({
      store: store(),
      clock,
      log: silentLogger,
      send: (week) => digest.send({ week, allowFlagged: true, allowThin: true }),
    });
  };

  it('sends once per reader at its time, however many schedulers race for it', async () => {
    const sent = await store().scheduledSends.schedule({
      edition: WEEK,
      sendAt: AT,
      timeZone: 'Europe/Berlin',
      createdBy: 'ed@example.com',
    });
    const [first, second] = [scheduler(), scheduler()];
    expect(await first.runDue()).toEqual([]);
    expect(smtp.mails).toHaveLength(0);

    now = AT;
    const ran = await Promise.all([first.runDue(), second.runDue(), first.runDue(), second.runDue()]);
    expect(ran.flat()).toEqual([sent.id]);
    expect([...smtp.counts.entries()].sort()).toEqual(READERS.map((address) => [address, 1]));
    expect(await store().scheduledSends.latest(WEEK)).toMatchObject({
      state: 'done',
      outcome: { sent: 3, complete: true },
    });
    // Later ticks, and a send from the CLI or the desk, find every reader mailed.
    expect(await first.runDue(new Date(AT.getTime() + 60_000))).toEqual([]);
    expect((await testDigest(store(), smtp.port).send({ week: WEEK })).run.sent).toBe(0);
    expect(smtp.mails).toHaveLength(3);
  });

  it('never runs a cancelled send, and records a failed one without retrying it', async () => {
    now = AT;
    await store().scheduledSends.schedule({ edition: WEEK, sendAt: AT, timeZone: 'UTC', createdBy: 'cli' });
    await store().scheduledSends.cancel(WEEK);
    expect(await scheduler().runDue()).toEqual([]);
    expect(smtp.mails).toHaveLength(0);

    // A week that was never published: the send throws; the row keeps why.
    await store().scheduledSends.schedule({
      edition: '2026-05-11',
      sendAt: AT,
      timeZone: 'UTC',
      createdBy: 'cli',
    });
    const performer = scheduler();
    expect(await performer.runDue()).toHaveLength(1);
    expect(await store().scheduledSends.latest('2026-05-11')).toMatchObject({
      state: 'done',
      outcome: { error: expect.stringMatching(/No edition for 2026-05-11/) },
    });
    expect(await performer.runDue()).toEqual([]);
  });
});
