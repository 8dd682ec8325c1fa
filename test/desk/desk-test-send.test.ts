// "Send a test to me" on the desk: the week's mail to the signed-in editor (draft or published), its subject marked
// "[Test]", its item links straight to the items (counted links would count an editor's clicks), no send-log row,
// audited, and limited per editor. Without SMTP the button is not shown.
import { afterEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';
import { createDeskHarness, type DeskHarness, EDITOR, signIn, WEEK } from './_desk.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';

describe('a test mail from the desk', () => {
  const store = useTestStore();
  let smtp: TestSmtpServer | undefined;
  let harness: DeskHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    await smtp?.close();
  });

  const withSmtp = async () => {
    smtp = await startSmtpServer();
    harness = await createDeskHarness(store(), {
      email: {
        from: 'Test Digest <digest@example.org>',
        smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
        send: { messagesPerSecond: 1000, retryDelayMs: 20, timeoutMs: 2000 },
      },
      // Counted links on: a reader's mail would route each item through /r/; the test's must not.
      config: { analytics: { mode: 'aggregate' }, server: { baseUrl: 'https://digest.example/' } },
      env: { DIGEST_SECRET: SECRET },
    });
    return harness;
  };

  it('mails the draft to the signed-in editor: "[Test]", links that count nothing, no send-log row', async () => {
    const { app } = await withSmtp();
    await store().subscribers.put('reader@example.org', 'reader@example.org', 'confirmed');
    const client = await signIn(app);
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(`action="/admin/week/${WEEK}/test"`);
    expect(board).toContain('Send a test to me</button>');

    const response = await client.post(`/admin/week/${WEEK}/test`, {});
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin/week/${WEEK}?done=tested`);
    expect(smtp!.mails.map((mail) => mail.to)).toEqual([[EDITOR.email]]);
    const mail = parseMail(smtp!.mails[0]!.raw);
    expect(mail.headers.get('subject')?.[0]).toMatch(/^(\[Test\]|=\?UTF-8\?Q\?=5BTest=5D)/i);
    expect(mail.html).toContain('https://arxiv.org/abs/2605.');
    expect(mail.html).not.toContain('/r/');
    // Not a send: no reader's row, the draft stays a draft, the reader got nothing.
    expect(await store().sendLog.counts(WEEK)).toMatchObject({ queued: 0, sent: 0, failed: 0 });
    expect((await store().editions.get(WEEK))?.publishedAt).toBeFalsy();
    const audit = await store().desk.listAudit({ week: WEEK });
    expect(audit.find((entry) => entry.action === 'send-test')).toMatchObject({
      editor: EDITOR.email,
      detail: { to: EDITOR.email },
    });
  });

  it('is limited per editor: the fourth test at once is refused with 429 and nothing is mailed', async () => {
    const { app } = await withSmtp();
    const client = await signIn(app);
    for (let test = 0; test < 3; test++) {
      expect((await client.post(`/admin/week/${WEEK}/test`, {})).status).toBe(303);
    }
    const limited = await client.post(`/admin/week/${WEEK}/test`, {});
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Test mails are limited');
    expect(smtp!.mails).toHaveLength(3);
  });

  it('mails a published edition too', async () => {
    const { app } = await withSmtp();
    const client = await signIn(app);
    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);
    const published = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(published).toContain('Send a test to me</button>');
    expect((await client.post(`/admin/week/${WEEK}/test`, {})).status).toBe(303);
    expect(smtp!.mails.at(-1)?.to).toEqual([EDITOR.email]);
    expect(await store().sendLog.counts(WEEK)).toMatchObject({ sent: 0 });
  });

  it('shows no button where no mail can go out (no SMTP configured)', async () => {
    harness = await createDeskHarness(store());
    const board = await (await (await signIn(harness.app)).get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('Draft edition: ');
    expect(board).not.toContain('Send a test to me');
  });
});
