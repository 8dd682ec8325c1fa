// The hand-over: a mail's terminating dot is written only after the send log records it, so a crash leaves rows
// that were certainly not delivered (sent again) and rows handed over (the only uncertain ones).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpPool, HandOverRefusedError } from '../../src/mail/smtp-pool.js';
import { judgeFailure } from '../../src/mail/smtp-sender.js';
import type { Store } from '../../src/store/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { addReaders, seedEdition, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const MAIL = {
  envelope: { from: 'digest@example.org', to: ['ada@example.com'] },
  raw: 'From: digest@example.org\r\nTo: ada@example.com\r\nSubject: Hello\r\n\r\nThe whole body.\r\n.leading dot\r\n',
};

describe('SMTP hand-over', () => {
  let smtp: TestSmtpServer;
  const events: string[] = [];
  const pool = () =>
    createSmtpPool({
      server: { host: '127.0.0.1', port: smtp.port, secure: false, requireTls: false, timeoutMs: 2_000 },
      connections: 1,
    });

  beforeEach(async () => {
    events.length = 0;
    smtp = await startSmtpServer({
      rcpt: (address) => {
        events.push(`rcpt ${address}`);
        return null;
      },
      onMail: () => {
        events.push('accepted');
      },
    });
  });
  afterEach(async () => {
    await smtp.close();
  });

  it('writes the terminating dot only after the hand-over is recorded, and after the envelope was accepted', async () => {
    const sender = pool();
    let grant: (granted: boolean) => void = () => {};
    const sent = sender.send(MAIL, () => {
      events.push('hand-over');
      return new Promise<boolean>((resolve) => {
        grant = resolve;
      });
    });
    await expect.poll(() => events.includes('hand-over')).toBe(true);
    // The server has the envelope and the content, but without the dot it keeps nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.mails).toHaveLength(0);
    grant(true);
    expect((await sent).response).toMatch(/^250\b.*Ok: queued/);
    expect(events).toEqual(['rcpt ada@example.com', 'hand-over', 'accepted']);
    expect(smtp.mails).toHaveLength(1);
    // Dot-stuffing still applies to the gated message.
    expect(smtp.mails[0]!.raw).toContain('The whole body.\r\n.leading dot');
    sender.close();
  });

  it('does not finish a mail whose hand-over is refused, and goes on with the next one', async () => {
    const sender = pool();
    await expect(sender.send(MAIL, async () => false)).rejects.toBeInstanceOf(HandOverRefusedError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.mails).toHaveLength(0);
    const next = await sender.send(MAIL, async () => true);
    expect(next.response).toMatch(/^250\b/);
    expect(smtp.mails).toHaveLength(1);
    sender.close();
  });

  it('does not finish a mail when recording the hand-over fails', async () => {
    const sender = pool();
    await expect(
      sender.send(MAIL, async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow(/database gone/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.mails).toHaveLength(0);
    sender.close();
  });
});

describe('SMTP login', () => {
  it('logs in when the server asks for it, and a refused password is fatal to the send', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'digest' && auth.password === 'right-password')
          return callback(null, { user: 'digest' });
        callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(String(session.user));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    const pool = (password: string) =>
      createSmtpPool({
        server: {
          host: '127.0.0.1',
          port,
          secure: false,
          requireTls: false,
          timeoutMs: 2_000,
          user: 'digest',
          password,
        },
        connections: 1,
      });
    try {
      const good = pool('right-password');
      await good.send(MAIL, async () => true);
      expect(received).toEqual(['digest']);
      good.close();
      const bad = pool('wrong-password');
      const failure = await bad.send(MAIL, async () => true).catch((error: unknown) => error);
      expect(judgeFailure(failure).kind).toBe('fatal');
      expect(received).toHaveLength(1);
      bad.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip)(`send log after a crash, on ${kind}`, () => {
    const getStore = useTestStore(kind);
    let store: Store;

    beforeEach(async () => {
      store = getStore();
      await seedEdition(store);
      await addReaders(store, ['a@example.com', 'b@example.com', 'c@example.com']);
    });

    it('queues again the mails never handed over; only handed-over ones are uncertain', async () => {
      const gone = 'host/1/gone';
      await store.sendLog.enqueue(WEEK);
      const ids = await store.sendLog.reserveBatch({
        edition: WEEK,
        worker: gone,
        limit: 10,
        deadClaimers: [],
        leaseSeconds: 60,
      });
      expect(ids).toHaveLength(3);
      const [first, second] = ids;
      await store.sendLog.start({ edition: WEEK, subscriberId: first!, worker: gone });
      await store.sendLog.start({ edition: WEEK, subscriberId: second!, worker: gone });
      expect(await store.sendLog.handOver({ edition: WEEK, subscriberId: second!, worker: gone })).toBe(true);

      expect(await store.sendLog.recoverAbandoned(WEEK, [gone], 60)).toEqual({ requeued: 1, uncertain: 1 });
      const counts = await store.sendLog.counts(WEEK);
      // The third row was only reserved: the next run takes it over as it is.
      expect(counts).toMatchObject({ queued: 3 - 1, uncertain: 1, sending: 0, sent: 0 });
      // Over every edition (for /metrics): the same counts, with no retry wait.
      const { nextRetryInMs: _, ...perEdition } = counts;
      expect(await store.sendLog.totals()).toEqual(perEdition);
      const uncertain = await store.sendLog.list(WEEK, { states: ['uncertain'] });
      expect(uncertain.map((row) => row.subscriberId)).toEqual([second]);

      // The process judged gone was only slow: its hand-over is refused, so it does not finish the mail.
      expect(await store.sendLog.handOver({ edition: WEEK, subscriberId: first!, worker: gone })).toBe(false);
      // A new attempt starts without the old hand-over.
      const next = 'host/2/next';
      expect(
        await store.sendLog.reserveBatch({
          edition: WEEK,
          worker: next,
          limit: 10,
          deadClaimers: [gone],
          leaseSeconds: 60,
        }),
      ).toContain(first);
      await store.sendLog.start({ edition: WEEK, subscriberId: first!, worker: next });
      expect(await store.sendLog.recoverAbandoned(WEEK, [next], 60)).toEqual({ requeued: 1, uncertain: 0 });
    });
  });
}
