// Sending from the desk: "Send to N readers" on a published, unsent edition (a confirmation with the count, the send
// in the background through the one send log, its progress and result on the board), then a correction and "Mail the
// notice to N readers" (the same run as `digest send --correction`): each reader gets each mail once.
import { describe, expect, it, vi } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { useTestStore } from '../support/database.js';
import { signIn, useMailingDesk, WEEK } from './_desk.js';

const READERS = ['ada@example.org', 'grace@example.org'];

/** The correction form as its page fills it, with the first summary changed. */
function correctionFields(edition: Edition): Record<string, string> {
  const fields: Record<string, string> = {
    title: edition.title,
    intro: edition.intro,
    reason: 'A wrong number',
  };
  edition.items.forEach((item, index) => {
    fields[`title-${index}`] = item.title;
    fields[`summary-${index}`] = index === 0 ? 'The corrected summary: 3 points, not 30.' : item.summary;
    item.takeaways.forEach((takeaway, n) => {
      fields[`takeaway${n + 1}-${index}`] = takeaway;
    });
    fields[`level-${index}`] = item.level;
  });
  return fields;
}

describe('sending from the desk', () => {
  const store = useTestStore();
  const mailing = useMailingDesk(store, {
    send: { messagesPerSecond: 1000, retryDelayMs: 20, timeoutMs: 2000 },
  });
  const smtp = () => mailing.smtp();
  const harness = () => mailing.harness();

  const audit = async () => (await store().desk.listAudit({ week: WEEK })).map((entry) => entry.action);

  it('sends a published edition once per reader, shows the result, then mails the correction notice once', async () => {
    const client = await signIn(harness().app);
    // Published with nobody to mail yet: approving sends nothing.
    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);
    for (const address of READERS) await store().subscribers.put(address, address, 'confirmed');

    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('Send to 2 reader(s)…</a>');
    const confirm = await (await client.get(`/admin/week/${WEEK}/send`)).text();
    expect(confirm).toContain('<strong>2</strong> confirmed reader(s) have not had it yet');
    expect(confirm).toContain('Send to 2 reader(s)</button>');

    const sent = await client.post(`/admin/week/${WEEK}/send`, {});
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/admin/week/${WEEK}?done=sending`);
    await vi.waitFor(async () => expect(await audit()).toContain('sent'), { timeout: 20_000, interval: 50 });
    expect(
      smtp()
        .mails.map((mail) => mail.to[0])
        .sort(),
    ).toEqual(READERS);
    const after = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(after).toContain('Mail: sent 2 · waiting 0 · failed 0 · uncertain 0 · skipped 0.');
    expect(after).not.toContain('Send to ');
    // Sending again has nobody to mail: refused, nothing sent.
    expect((await client.post(`/admin/week/${WEEK}/send`, {})).status).toBe(409);

    const edition = (await store().editions.get(WEEK))!;
    const corrected = await client.post(`/admin/week/${WEEK}/correct`, correctionFields(edition));
    expect(corrected.status, await corrected.clone().text()).toBe(303);
    const told = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(told).toContain('Correction notice of revision 2: sent to 0; 2 reader(s)');
    expect(told).toContain('Mail the notice to 2 reader(s)…</a>');
    expect(told).toContain('<td>A wrong number</td>');

    const notice = await client.post(`/admin/week/${WEEK}/notice`, {});
    expect(notice.status).toBe(303);
    await vi.waitFor(async () => expect(await audit()).toContain('notice-sent'), {
      timeout: 20_000,
      interval: 50,
    });
    expect(smtp().mails).toHaveLength(4);
    expect([...smtp().counts.values()]).toEqual([2, 2]);
    const done = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(done).toContain('Correction notice of revision 2: sent to 2; 0 reader(s)');
    expect(done).not.toContain('Mail the notice to');
    expect((await client.post(`/admin/week/${WEEK}/notice`, {})).status).toBe(409);
  }, 60_000);

  it('offers no send before publication, and refuses one', async () => {
    const client = await signIn(harness().app);
    await store().subscribers.put('ada@example.org', 'ada@example.org', 'confirmed');
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).not.toContain(`/admin/week/${WEEK}/send"`);
    expect((await client.get(`/admin/week/${WEEK}/send`)).status).toBe(404);
    expect((await client.post(`/admin/week/${WEEK}/send`, {})).status).toBe(409);
    expect((await client.post(`/admin/week/${WEEK}/notice`, {})).status).toBe(409);
    expect(smtp().mails).toHaveLength(0);
  });
});
