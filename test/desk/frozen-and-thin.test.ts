// A thin draft on the desk (says why; approving it needs the explicit "publish it anyway"), and a frozen week's
// board (what readers have, a correction as its one editing action, no control the guard would refuse). The
// approval page counts only readers a send would mail: not those the edition was sent to already.
import { afterEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { createDeskHarness, type DeskHarness, signIn, WEEK, weekItems } from './_desk.js';

describe('the desk: thin drafts and frozen weeks', () => {
  const store = useTestStore();
  let harness: DeskHarness | undefined;
  afterEach(async () => harness?.close());

  it('says why a draft is thin and publishes it only with the explicit confirmation', async () => {
    // Four items asked for (the harness's itemsPerEdition), one candidate: fewer than half.
    harness = await createDeskHarness(store(), { items: weekItems(1) });
    const client = await signIn(harness.app);
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('This draft is thin: 1 item; at least 2 expected (selection.minItems)');
    const page = await (await client.get(`/admin/week/${WEEK}/approve`)).text();
    expect(page).toMatch(/<input type="checkbox" id="allow-thin" name="allowThin" value="yes" required>/);

    const refused = await client.post(`/admin/week/${WEEK}/approve`, {});
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('The edition is thin: 1 item');
    expect((await store().editions.get(WEEK))?.publishedAt).toBeFalsy();

    const approved = await client.post(`/admin/week/${WEEK}/approve`, { allowThin: 'yes' });
    expect(approved.status).toBe(303);
    expect((await store().editions.get(WEEK))?.publishedAt).toBeTruthy();
    const audit = await store().desk.listAudit();
    expect(audit.find((entry) => entry.action === 'approve')?.detail).toMatchObject({
      thin: expect.any(String),
    });
  });

  it('shows a published week frozen: its revision, readers mailed, and "Correct this edition" as the one change', async () => {
    harness = await createDeskHarness(store());
    const client = await signIn(harness.app);
    const draft = await (await client.get(`/admin/week/${WEEK}`)).text();
    for (const control of ['Rebuild the draft', 'value="up"', 'value="skip"', 'Approve and publish…']) {
      expect(draft, control).toContain(control);
    }
    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);

    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('Published edition (revision 1): ');
    expect(board).toContain('Mailed to <strong>0</strong> reader(s).');
    expect(board).toContain('Revision 1: no correction since.');
    expect(board).toContain('>Correct this edition</a>');
    // Every control the guard refuses on a frozen week is gone: its forms, and the links to edit or approve.
    for (const action of ['rebuild', 'decide', 'add', 'count', 'approve', 'edit', 'regenerate']) {
      expect(board, action).not.toContain(`action="/admin/week/${WEEK}/${action}"`);
    }
    expect(board).not.toContain('Approve and publish…');
    expect(board).not.toContain(`/admin/week/${WEEK}/item?key=`);
    expect(board).not.toContain('<th scope="col">Decide</th>');
    // The server still refuses what it never offers.
    expect((await client.post(`/admin/week/${WEEK}/rebuild`, {})).status).toBe(409);
    const approvePage = await (await client.get(`/admin/week/${WEEK}/approve`)).text();
    expect(approvePage).not.toContain(`action="/admin/week/${WEEK}/approve"`);
  });

  it('counts on the approval page only readers the send would mail', async () => {
    harness = await createDeskHarness(store());
    for (const address of ['sent@example.org', 'waiting@example.org']) {
      await store().subscribers.put(address, address, 'confirmed');
    }
    await store().subscribers.put('pending@example.org', 'pending@example.org', 'pending');
    const client = await signIn(harness.app);
    expect(await (await client.get(`/admin/week/${WEEK}/approve`)).text()).toContain(
      '<strong>2</strong> reader(s) will get the mail',
    );
    // One reader has the edition already (a send the process ran before): the page no longer counts them.
    await store().sendLog.enqueue(WEEK);
    const worker = 'test-worker';
    const [first] = await store().sendLog.reserveBatch({
      edition: WEEK,
      worker,
      limit: 1,
      deadClaimers: [],
      leaseSeconds: 60,
    });
    const row = { edition: WEEK, subscriberId: first!, worker };
    expect(await store().sendLog.start(row)).not.toBeNull();
    expect(await store().sendLog.handOver(row)).toBe(true);
    await store().sendLog.recordSent(row, { smtpResponse: '250 ok', messageId: '<m@example.org>' });
    expect(await (await client.get(`/admin/week/${WEEK}/approve`)).text()).toContain(
      '<strong>1</strong> reader(s) will get the mail',
    );
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('Mailed to <strong>1</strong> reader(s).');
  });
});
