// Approving on the desk with SMTP configured: the edition is published, then sent in the background to every
// confirmed reader through the send log (the subscribers capability's `send`), and the outcome goes to the audit log.
import { describe, expect, it, vi } from 'vitest';
import { useTestStore } from '../support/database.js';
import { signIn, useMailingDesk, WEEK } from './_desk.js';

describe('approving on the desk sends the edition', () => {
  const store = useTestStore();
  const mailing = useMailingDesk(store, {
    send: { messagesPerSecond: 1000, retryDelayMs: 20, timeoutMs: 2000 },
  });
  const smtp = () => mailing.smtp();
  const harness = () => mailing.harness();

  const auditActions = async () =>
    (await store().desk.listAudit({ week: WEEK })).map((entry) => entry.action);

  it('mails each confirmed reader once after approval and records the send in the audit log', async () => {
    await store().subscribers.put('reader@example.org', 'reader@example.org', 'confirmed');
    await store().subscribers.put('pending@example.org', 'pending@example.org', 'pending');
    const client = await signIn(harness().app);
    const response = await client.post(`/admin/week/${WEEK}/approve`, {});
    expect(response.status).toBe(303);
    // The send runs after the reply: wait until it has settled one way or the other.
    await vi.waitFor(
      async () =>
        expect((await auditActions()).some((action) => action === 'sent' || action === 'send-failed')).toBe(
          true,
        ),
      { timeout: 20_000, interval: 50 },
    );
    // Newest first.
    expect((await auditActions()).reverse()).toEqual(['approve', 'publish', 'send-started', 'sent']);
    const sent = (await store().desk.listAudit({ week: WEEK })).find((entry) => entry.action === 'sent');
    expect(sent?.detail).toMatchObject({ sent: 1, failed: 0 });
    expect(smtp().mails.map((mail) => mail.to)).toEqual([['reader@example.org']]);
  });
});
