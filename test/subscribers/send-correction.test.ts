// `digest send --correction` (the use case) against a real SMTP server on loopback, on PGlite and on PostgreSQL:
// after an edition was mailed and corrected, each reader who was sent an earlier revision gets one short notice
// (what changed, links to the corrected edition and the revision before it), nobody gets the whole edition again,
// and the send log names the revision each reader was sent.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Digest } from '../../src/compose/create-digest.js';
import { ConfigError } from '../../src/core/errors.js';
import type { Store } from '../../src/store/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { addReaders, BASE_URL, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const READERS = ['ada@example.com', 'grace@example.org'];
const REASON = 'Item 1 said <b>30</b> points & "state of the art"; it is 3 points';

async function correctOnce(digest: Digest, outDir: string, summary: string, reason = REASON) {
  const draft = await digest.correctionDraft(WEEK);
  draft.items[0]!.summary = summary;
  return digest.correct({ week: WEEK, reason, editor: 'editor@example.org', corrected: draft, outDir });
}

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip)(`digest send --correction on ${kind}`, () => {
    const getStore = useTestStore(kind);
    let smtp: TestSmtpServer;
    let store: Store;
    let digest: Digest;
    let outDir: string;

    beforeEach(async () => {
      smtp = await startSmtpServer();
      store = getStore();
      digest = testDigest(store, smtp.port);
      outDir = await mkdtemp(join(tmpdir(), 'digest-correction-send-'));
      await seedEdition(store);
    });
    afterEach(async () => {
      await smtp.close();
      await rm(outDir, { recursive: true, force: true });
    });

    it('refuses a week with no correction, naming what to do, and mails no one', async () => {
      await addReaders(store, READERS);
      await digest.send({ week: WEEK });
      const before = smtp.mails.length;
      const refusal = digest.send({ week: WEEK, correction: true });
      await expect(refusal).rejects.toThrow(ConfigError);
      await expect(refusal).rejects.toThrow(/no correction.*digest correct --week 2026-05-04/);
      await expect(digest.send({ correction: true })).rejects.toThrow(/--week/);
      expect(smtp.mails).toHaveLength(before);
      expect(await store.sendLog.counts({ edition: WEEK, notice: 2 })).toMatchObject({ queued: 0, sent: 0 });
    });

    it('mails one notice per reader who had an earlier revision, and nobody the whole edition again', async () => {
      await addReaders(store, READERS);
      await addReaders(store, ['pending@example.com'], 'pending');
      expect((await digest.send({ week: WEEK })).run.sent).toBe(2);
      await correctOnce(digest, outDir, 'The gain is 3 points, not 30.');
      smtp.mails.length = 0;

      // A plain send of the mailed week mails nobody again.
      expect((await digest.send({ week: WEEK })).run.sent).toBe(0);
      expect(smtp.mails).toEqual([]);

      const dry = await digest.send({ week: WEEK, correction: true, dryRun: true });
      expect(dry.wouldSend.sort()).toEqual([...READERS].sort());
      expect(smtp.mails).toEqual([]);

      const outcome = await digest.send({ week: WEEK, correction: true });
      expect(outcome).toMatchObject({ correction: 2, complete: true, run: { sent: 2, failed: 0 } });
      expect(smtp.mails.map((mail) => mail.to[0]).sort()).toEqual([...READERS].sort());
      for (const received of smtp.mails) {
        const mail = parseMail(received.raw);
        expect(mail.headers.get('subject')?.[0]).toMatch(/^Correction: LLM News Digest of May 4, 2026 \(/);
        expect(mail.headers.get('message-id')?.[0]).toMatch(
          /^<correction-2026-05-04-r2\.\d+@digest\.example\.org>$/,
        );
        expect(mail.headers.get('list-unsubscribe')?.[0]).toMatch(
          /^<https:\/\/digest\.example\.org\/unsubscribe\?token=[A-Za-z0-9._-]+>, <mailto:unsubscribe@example\.org\?subject=unsubscribe%20[A-Za-z0-9._-]+>$/,
        );
        expect(mail.headers.get('list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click']);
        expect(mail.text).toContain(`What changed: ${REASON}`);
        expect(mail.text).toContain(`The corrected edition: ${BASE_URL}${WEEK}/`);
        expect(mail.text).toContain(`(revision 1): ${BASE_URL}${WEEK}-r1/`);
        expect(mail.html).toContain(
          'Item 1 said &lt;b&gt;30&lt;/b&gt; points &amp; &quot;state of the art&quot;',
        );
        expect(mail.html).not.toContain('<b>30</b>');
        expect(mail.html).toContain(`href="${BASE_URL}${WEEK}-r1/"`);
        expect(mail.html).toMatch(/href="https:\/\/digest\.example\.org\/unsubscribe\?token=/);
      }

      // At most once per reader per revision: a rerun mails no one.
      expect((await digest.send({ week: WEEK, correction: true })).run.sent).toBe(0);
      expect(smtp.mails).toHaveLength(2);
    });

    it('records the revision each reader was sent; a later correction reaches readers of either earlier one', async () => {
      await addReaders(store, ['ada@example.com']);
      await digest.send({ week: WEEK });
      await correctOnce(digest, outDir, 'First correction of item 1.');
      // A reader confirmed after the correction gets the edition as it is now: revision 2, and no notice of it.
      await addReaders(store, ['late@example.com']);
      expect((await digest.send({ week: WEEK })).run.sent).toBe(1);
      const rows = await store.sendLog.list(WEEK, { states: ['sent'] });
      expect(rows.map((row) => [row.address, row.revision])).toEqual([
        ['ada@example.com', 1],
        ['late@example.com', 2],
      ]);
      smtp.mails.length = 0;
      expect((await digest.send({ week: WEEK, correction: true })).run.sent).toBe(1);
      expect(smtp.mails.map((mail) => mail.to[0])).toEqual(['ada@example.com']);

      await correctOnce(digest, outDir, 'Second correction of item 1.', 'A second mistake in item 1');
      smtp.mails.length = 0;
      const third = await digest.send({ week: WEEK, correction: true });
      expect(third).toMatchObject({ correction: 3, run: { sent: 2 } });
      expect(smtp.mails.map((mail) => mail.to[0]).sort()).toEqual(['ada@example.com', 'late@example.com']);
      const text = parseMail(smtp.mails[0]!.raw).text;
      expect(text).toContain('What changed: A second mistake in item 1');
      expect(text).toContain(`(revision 2): ${BASE_URL}${WEEK}-r2/`);
      // The edition's own rows still say what each reader was sent.
      expect((await store.sendLog.list(WEEK, { states: ['sent'] })).map((row) => row.revision)).toEqual([
        1, 2,
      ]);
    });

    it("a reader who missed revision 2's notice gets revision 3's linking the revision they had, revision 1", async () => {
      await addReaders(store, READERS);
      expect((await digest.send({ week: WEEK })).run.sent).toBe(2);
      await correctOnce(digest, outDir, 'First correction of item 1.');
      // grace's mailbox bounced while revision 2's notice went out; she is back for revision 3's.
      const grace = (await store.subscribers.get({ address: 'grace@example.org' }))!;
      await store.subscribers.setStatus(grace.id, 'bounced', ['confirmed']);
      expect((await digest.send({ week: WEEK, correction: true })).run.sent).toBe(1);
      await store.subscribers.setStatus(grace.id, 'confirmed', ['bounced']);
      await correctOnce(digest, outDir, 'Second correction of item 1.', 'A second mistake in item 1');
      smtp.mails.length = 0;
      expect((await digest.send({ week: WEEK, correction: true })).run.sent).toBe(2);
      const texts = new Map(smtp.mails.map((mail) => [mail.to[0], parseMail(mail.raw).text]));
      expect(texts.get('ada@example.com')).toContain(`(revision 2): ${BASE_URL}${WEEK}-r2/`);
      expect(texts.get('grace@example.org')).toContain(`(revision 1): ${BASE_URL}${WEEK}-r1/`);
      expect(texts.get('grace@example.org')).not.toContain(`${WEEK}-r2/`);
    });
  });
}
