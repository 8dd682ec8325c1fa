// The outbox worker's pace, through the real use cases: an import's confirmation mails reach a loopback SMTP server
// no faster than server.outbox.messagesPerSecond, and a worker stopped or killed mid-queue leaves none sent twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SubscribeApp, subscribeApp } from '../server/_subscribe-app.js';
import { useTestStore } from '../support/database.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const RATE = 20;
const SPACING_MS = 1000 / RATE;

describe('the outbox worker at its configured rate (PGlite, loopback SMTP)', () => {
  const store = useTestStore('pglite');
  let site: TempSite;
  let smtp: TestSmtpServer;
  let arrivals: { to: string; at: number }[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];

  beforeAll(async () => {
    site = await publishTempSite();
    smtp = await startSmtpServer({
      onMail(mail) {
        arrivals.push({ to: mail.to[0] ?? '', at: performance.now() });
        for (const waiter of waiters.filter((entry) => entry.count <= arrivals.length)) waiter.resolve();
        waiters = waiters.filter((entry) => entry.count > arrivals.length);
      },
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await site?.remove();
  });

  const arrived = (count: number) =>
    count <= arrivals.length
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  const paced = (server: Record<string, unknown> = {}) =>
    subscribeApp({
      store: store(),
      siteDir: site.dir,
      smtpPort: smtp.port,
      server: { outbox: { messagesPerSecond: RATE, pollMs: 20, leaseSeconds: 1, ...server } },
    });
  const importList = async (t: SubscribeApp, count: number) => {
    const addresses = Array.from({ length: count }, (_, index) => `reader${index}@example.com`);
    const report = await t.digest.subscribers.import({
      csv: `email\n${addresses.join('\n')}\n`,
      consentBy: null,
    });
    expect(report).toMatchObject({ added: count, mailed: count });
    return addresses;
  };

  it("an import's confirmation mails go out evenly at the rate, not all at once", async () => {
    arrivals = [];
    const t = await paced();
    await t.digest.subscriptions.startOutbox();
    const began = performance.now();
    const addresses = await importList(t, 10);
    await arrived(addresses.length);
    await t.digest.subscriptions.stopOutbox();
    expect(arrivals.map((arrival) => arrival.to).sort()).toEqual([...addresses].sort());
    // The k-th mail starts no sooner than k spacings after the first, which starts after the import began: so it
    // cannot arrive sooner either, however long each SMTP transaction takes.
    const early = arrivals.filter((arrival, k) => arrival.at - began < k * SPACING_MS);
    expect(early).toEqual([]);
  });

  it('a worker stopped mid-queue, and one killed holding mails, leave nothing sent twice', async () => {
    arrivals = [];
    const first = await paced();
    // More than one claim's worth (a second of mails): the stopped worker finishes its claim and leaves the rest.
    const addresses = await importList(first, 30);
    await first.digest.subscriptions.startOutbox();
    await arrived(3);
    await first.digest.subscriptions.stopOutbox();
    const sentByFirst = arrivals.length;
    expect(sentByFirst).toBeLessThan(addresses.length);
    // A worker killed with two mails claimed, one of them already handed to the SMTP server (maybe delivered).
    const held = await store().outbox.claim('killed-worker', 2, 1);
    expect(held).toHaveLength(2);
    expect(await store().outbox.handOver(held[0]!.id, 'killed-worker')).toBe(true);

    const second = await paced();
    await second.digest.subscriptions.startOutbox();
    // Every mail but the handed-over one, the killed worker's other one taken over after its lease.
    await arrived(addresses.length - 1);
    await second.digest.subscriptions.idle();
    await second.digest.subscriptions.stopOutbox();
    const received = arrivals.map((arrival) => arrival.to);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toHaveLength(addresses.length - 1);
    const [uncertain] = await store().outbox.mailProblems([held[0]!.subscriberId]);
    expect(uncertain).toMatchObject({ state: 'uncertain' });
    const handedOver = await store().subscribers.get({ id: held[0]!.subscriberId });
    expect(received).not.toContain(handedOver?.address);
    expect((await store().outbox.health()).waiting).toBe(0);
  });
});
