// "Send at…" on the desk (in-process, app.request()): a published, unsent edition's send set for a time in the
// editor's zone, shown on the board in that zone and in UTC with Cancel; a time in the past, an unknown zone or an
// unpublished week refused with why; a cancel until it starts, audited both ways.
import { describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { signIn, useMailingDesk, WEEK } from './_desk.js';

describe('scheduling a send from the desk', () => {
  const store = useTestStore();
  const mailing = useMailingDesk(store);
  const smtp = () => mailing.smtp();
  const harness = () => mailing.harness();

  it('refuses before publication, then schedules in the editor zone, shows it in UTC too, and cancels it', async () => {
    const client = await signIn(harness().app);
    await store().subscribers.put('ada@example.org', 'ada@example.org', 'confirmed');
    const early = await client.post(`/admin/week/${WEEK}/schedule`, { at: '2099-01-05T08:00', zone: 'UTC' });
    expect(early.status).toBe(409);
    expect(await store().scheduledSends.waiting(WEEK)).toBeNull();

    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(`<a href="/admin/week/${WEEK}/send#send-at">Send at a time…</a>`);
    const page = await (await client.get(`/admin/week/${WEEK}/send`)).text();
    expect(page).toContain('<input type="datetime-local" id="send-at" name="at" required>');
    expect(page).toMatch(/name="zone" value="[^"]+" data-browser-zone/);
    expect(page).toContain('<script src="/desk-assets/desk.js" defer></script>');

    const past = await client.post(`/admin/week/${WEEK}/schedule`, { at: '2020-01-06T08:00', zone: 'UTC' });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain('is not in the future');
    const zone = await client.post(`/admin/week/${WEEK}/schedule`, {
      at: '2099-01-05T08:00',
      zone: 'Mars/Olympus',
    });
    expect(zone.status).toBe(400);
    expect(await zone.text()).toContain('&quot;Mars/Olympus&quot; is not a time zone');

    const set = await client.post(`/admin/week/${WEEK}/schedule`, {
      at: '2099-01-05T08:00',
      zone: 'Europe/Berlin',
    });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe(`/admin/week/${WEEK}?done=scheduled`);
    const scheduled = await (await client.get(`/admin/week/${WEEK}?done=scheduled`)).text();
    expect(scheduled).toContain('Scheduled: the server sends it at that time');
    expect(scheduled).toContain(
      'Scheduled for <strong>2099-01-05 08:00 Europe/Berlin (UTC 2099-01-05 07:00)</strong> by ed@example.com.',
    );
    expect(scheduled).toContain(`action="/admin/week/${WEEK}/unschedule"`);
    expect(await (await client.get(`/admin/week/${WEEK}/send`)).text()).toContain('Already scheduled for');

    const cancelled = await client.post(`/admin/week/${WEEK}/unschedule`, {});
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`/admin/week/${WEEK}?done=unscheduled`);
    const after = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(after).not.toContain('Scheduled for');
    expect(after).not.toContain('/unschedule"');
    expect((await client.post(`/admin/week/${WEEK}/unschedule`, {})).status).toBe(409);
    const audit = (await store().desk.listAudit({ week: WEEK })).map((entry) => entry.action);
    expect(audit).toEqual(expect.arrayContaining(['send-scheduled', 'send-unscheduled']));
    expect(smtp().mails).toHaveLength(0);
  });

  it('refuses a schedule without a valid CSRF token', async () => {
    const client = await signIn(harness().app);
    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);
    const forged = await client.post(`/admin/week/${WEEK}/schedule`, {
      at: '2099-01-05T08:00',
      csrf: 'forged',
    });
    expect(forged.status).toBe(403);
    expect(await store().scheduledSends.waiting(WEEK)).toBeNull();
  });
});
