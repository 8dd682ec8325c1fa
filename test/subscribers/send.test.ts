// `digest send` (the use case) against a real SMTP server on loopback, on PGlite and on PostgreSQL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlaggedEditionError } from '../../src/core/edition-flags.js';
import { SmtpUnreachableError } from '../../src/core/errors.js';
import type { Store } from '../../src/store/types.js';
import { createSubscriberTokens } from '../../src/subscribers/tokens.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { addReaders, BASE_URL, SECRET, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const READERS = ['ada@example.com', 'grace@example.org', 'linus+news@example.net'];

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip)(`digest send on ${kind}`, () => {
    const getStore = useTestStore(kind);
    let smtp: TestSmtpServer;
    let store: Store;

    beforeEach(async () => {
      smtp = await startSmtpServer();
      store = getStore();
      await seedEdition(store);
    });
    afterEach(async () => {
      await smtp.close();
    });

    it('mails each confirmed reader once, with their own one-click List-Unsubscribe and footer links', async () => {
      await addReaders(store, READERS);
      await addReaders(store, ['pending@example.com'], 'pending');
      await addReaders(store, ['gone@example.com'], 'unsubscribed');
      const outcome = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(outcome.complete).toBe(true);
      expect(outcome.run).toEqual({ sent: 3, failed: 0, skipped: 0, bounced: 0 });
      expect(smtp.mails.map((mail) => mail.to[0]).sort()).toEqual([...READERS].sort());

      const tokens = createSubscriberTokens(Buffer.from(SECRET), Date.now);
      const messageIds = new Set<string>();
      for (const received of smtp.mails) {
        const mail = parseMail(received.raw);
        const address = received.to[0]!;
        const subscriber = (await store.subscribers.get({ address }))!;
        const listUnsubscribe = mail.headers.get('list-unsubscribe')?.[0] ?? '';
        const match =
          /^<(https:\/\/digest\.example\.org\/unsubscribe\?token=([A-Za-z0-9._-]+))>, <mailto:unsubscribe@example\.org\?subject=unsubscribe%20([A-Za-z0-9._-]+)>$/.exec(
            listUnsubscribe,
          );
        expect(match, listUnsubscribe).not.toBeNull();
        const [, url, token, mailtoToken] = match!;
        expect(mailtoToken).toBe(token);
        expect(mail.headers.get('list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click']);
        const check = await tokens.verify(token!, 'unsubscribe', async (id) => {
          const row = await store.subscribers.get({ id: Number(id) });
          return row ? { id: String(row.id), address: row.address } : null;
        });
        expect(check).toMatchObject({ ok: true, subscriber: { id: String(subscriber.id), address } });
        expect(mail.headers.get('to')).toEqual([address]);
        expect(mail.html).toContain(`href="${url}"`);
        expect(mail.text).toContain(`Unsubscribe: ${url}`);
        expect(mail.html).toContain(`${BASE_URL}${WEEK}/`);
        messageIds.add(mail.headers.get('message-id')![0]!);
      }
      expect(messageIds.size).toBe(3);

      // A rerun sends nothing twice; a reader confirmed since gets the edition, alone.
      const again = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(again.run.sent).toBe(0);
      expect(smtp.mails).toHaveLength(3);
      await addReaders(store, ['late@example.com']);
      const late = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(late).toMatchObject({ added: 1, run: { sent: 1 }, complete: true });
      expect(smtp.mails.map((mail) => mail.to[0])).toEqual([
        ...smtp.mails.slice(0, 3).map((m) => m.to[0]),
        'late@example.com',
      ]);
      expect(late.counts).toMatchObject({ sent: 4, queued: 0, failed: 0, uncertain: 0 });
    });

    it('a reader who left after the rows were written is skipped, and gets nothing', async () => {
      await addReaders(store, READERS);
      expect(await store.sendLog.enqueue(WEEK)).toEqual({ added: 3, skipped: 0, retried: 0 });
      const grace = (await store.subscribers.get({ address: 'grace@example.org' }))!;
      await store.subscribers.setStatus(grace.id, 'unsubscribed', ['confirmed']);
      const outcome = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(outcome.counts).toMatchObject({ sent: 2, skipped: 1 });
      expect(smtp.mails.map((mail) => mail.to[0])).not.toContain('grace@example.org');
    });

    it('a reader who unsubscribes mid-send gets nothing after that', async () => {
      await addReaders(store, READERS);
      const last = (await store.subscribers.get({ address: READERS.at(-1)! }))!;
      // While the first mail is being accepted, the last reader clicks "unsubscribe".
      smtp.behaviour.onMail = async () => {
        await store.subscribers.setStatus(last.id, 'unsubscribed', ['confirmed']);
      };
      const outcome = await testDigest(store, smtp.port, { concurrency: 1 }).send({ week: WEEK });
      expect(smtp.mails.map((mail) => mail.to[0])).toEqual(READERS.slice(0, 2));
      expect(outcome.run).toMatchObject({ sent: 2, skipped: 1 });
      expect(outcome.complete).toBe(true);
    });

    it('--dry-run names who would get it and writes and sends nothing', async () => {
      await addReaders(store, READERS);
      await addReaders(store, ['pending@example.com'], 'pending');
      const outcome = await testDigest(store, smtp.port).send({ week: WEEK, dryRun: true });
      expect(outcome.wouldSend).toEqual(READERS);
      expect(smtp.mails).toHaveLength(0);
      expect(await store.sendLog.counts(WEEK)).toMatchObject({ queued: 0, sent: 0 });
      expect(await store.sendLog.list(WEEK, { states: ['queued', 'sent'] })).toEqual([]);
    });

    it('a 4xx is retried with backoff and then delivered once', async () => {
      await addReaders(store, READERS);
      smtp.behaviour.rcpt = (address, attempt) =>
        address === 'grace@example.org' && attempt <= 2
          ? { code: 451, message: '4.7.1 Greylisted, try again later' }
          : null;
      const outcome = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(outcome.complete).toBe(true);
      expect(smtp.counts.get('grace@example.org')).toBe(1);
      const [grace] = await store.sendLog.list(WEEK, { states: ['sent'], afterId: 1, limit: 1 });
      expect(grace).toMatchObject({ address: 'grace@example.org', attempts: 3 });
      expect(grace!.smtpResponse).toMatch(/^250/);
    });

    it('a 5xx fails for good and counts a bounce; at the limit the address is marked bounced', async () => {
      await addReaders(store, READERS);
      smtp.behaviour.rcpt = (address) =>
        address === 'ada@example.com' ? { code: 550, message: '5.1.1 No such user' } : null;
      const outcome = await testDigest(store, smtp.port, { bounceLimit: 1 }).send({ week: WEEK });
      expect(outcome.complete).toBe(false);
      expect(outcome.run).toEqual({ sent: 2, failed: 1, skipped: 0, bounced: 1 });
      expect(outcome.failed).toMatchObject([{ address: 'ada@example.com', attempts: 1 }]);
      expect(outcome.failed[0]!.smtpResponse).toMatch(/550 5\.1\.1 No such user/);
      expect(await store.subscribers.get({ address: 'ada@example.com' })).toMatchObject({
        status: 'bounced',
        bounces: 1,
      });
      // The bounced reader is not tried again.
      const rerun = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(rerun.run.sent + rerun.run.failed).toBe(0);
    });

    it('with the SMTP server down the send stops before any reader, marks none; a rerun once it is up delivers', async () => {
      await addReaders(store, READERS);
      const down = await startSmtpServer();
      const port = down.port;
      await down.close();
      const stopped = await testDigest(store, port, { maxAttempts: 2 })
        .send({ week: WEEK })
        .catch((error: unknown) => error as Error);
      expect(stopped).toBeInstanceOf(SmtpUnreachableError);
      expect((stopped as Error).message).toMatch(
        new RegExp(
          `Could not connect to the SMTP server 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED.*digest doctor`,
          's',
        ),
      );
      // Every reader is left to the next run: queued, not one attempt counted.
      expect(await store.sendLog.counts(WEEK)).toMatchObject({ queued: 3, sent: 0, failed: 0, sending: 0 });
      expect((await store.subscribers.get({ address: 'ada@example.com' }))!.bounces).toBe(0);
      const rerun = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(rerun).toMatchObject({ complete: true, run: { sent: 3, failed: 0 } });
      expect([...smtp.counts.values()]).toEqual([1, 1, 1]);
    });

    it('a slow server is waited for; one too slow to answer is retried', async () => {
      await addReaders(store, READERS);
      smtp.behaviour.dataDelayMs = () => 200;
      smtp.behaviour.rcptDelayMs = (address, attempt) =>
        address === 'ada@example.com' && attempt === 1 ? 1500 : 0;
      const outcome = await testDigest(store, smtp.port, { timeoutMs: 600 }).send({ week: WEEK });
      expect(outcome.complete).toBe(true);
      expect(outcome.run.sent).toBe(3);
      expect(smtp.counts.get('ada@example.com')).toBe(1);
      const [ada] = await store.sendLog.list(WEEK, { states: ['sent'], limit: 1 });
      expect(ada).toMatchObject({ address: 'ada@example.com', attempts: 2 });
    });

    it('an address that could break a header is never sent to', async () => {
      await addReaders(store, READERS);
      // Stored by going around the checks (the subscribe form and the CLI refuse it).
      const forged = 'eve@example.org\r\nBcc: mallory@example.net';
      await store.subscribers.put(forged, forged, 'confirmed');
      const outcome = await testDigest(store, smtp.port).send({ week: WEEK });
      expect(outcome.run).toMatchObject({ sent: 3, failed: 1 });
      expect(outcome.failed[0]!.smtpResponse).toMatch(/not a valid address/);
      expect(smtp.mails.flatMap((mail) => mail.to)).toEqual(
        expect.not.arrayContaining(['mallory@example.net']),
      );
      for (const mail of smtp.mails) expect(parseMail(mail.raw).headers.has('bcc')).toBe(false);
    });

    it('refuses an edition with fallbacks or flags unless allowFlagged', async () => {
      await addReaders(store, READERS);
      await seedEdition(store, (edition) => {
        edition.items[1]!.checks = { status: 'fallback', flagged: true, notes: ['model down'] };
      });
      const refused = await testDigest(store, smtp.port)
        .send({ week: WEEK })
        .catch((error) => error);
      expect(refused).toBeInstanceOf(FlaggedEditionError);
      expect(refused.message).toMatch(/1 item\(s\) fell back/);
      expect(smtp.mails).toHaveLength(0);
      expect(await store.sendLog.counts(WEEK)).toMatchObject({ queued: 0 });
      const allowed = await testDigest(store, smtp.port).send({ week: WEEK, allowFlagged: true });
      expect(allowed.run.sent).toBe(3);
    });
  });
}
