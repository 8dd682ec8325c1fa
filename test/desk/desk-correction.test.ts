// "Correct this edition" on the desk, through its routes: a published edition's board offers it, a refused change
// (409) offers it as a button, the correction draft is the published text in the published order, and approving it
// with a reason publishes revision 2 through `digest correct`'s use case, audited with the editor. A correction
// cannot add, drop or reorder items, whatever the form says; session and CSRF are required as for every desk write.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { createDeskHarness, type DeskHarness, EDITOR, signIn, WEEK, XSS } from './_desk.js';

/** The correction form's fields as the page fills them, with `change` applied. */
function draftFields(edition: Edition, change: (fields: Record<string, string>) => void = () => {}) {
  const fields: Record<string, string> = { title: edition.title, intro: edition.intro };
  edition.items.forEach((item, index) => {
    fields[`title-${index}`] = item.title;
    fields[`summary-${index}`] = item.summary;
    item.takeaways.forEach((takeaway, n) => {
      fields[`takeaway${n + 1}-${index}`] = takeaway;
    });
    fields[`level-${index}`] = item.level;
  });
  change(fields);
  return fields;
}

describe("the desk's correction of a published edition", () => {
  let store: Store;
  let harness: DeskHarness;
  let published: Edition;
  const path = `/admin/week/${WEEK}/correct`;

  beforeAll(async () => {
    store = await createTestStore();
    harness = await createDeskHarness(store);
    await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false, allowFlagged: true });
    published = (await store.editions.get(WEEK))!;
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  it('is offered on the board and as a button on the 409 of a refused change', async () => {
    const client = await signIn(harness.app);
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(`href="${path}"`);
    expect(board).toContain('Correct this edition');
    const refused = await client.post(`/admin/week/${WEEK}/rebuild`, {});
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(
      new RegExp(
        `<form method="get" action="${path}"><p><button type="submit">Correct this edition</button>`,
      ),
    );
  });

  it('shows the published text as a draft, escaped, with no control that adds, drops or moves an item', async () => {
    const client = await signIn(harness.app);
    const response = await client.get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('name="reason"');
    for (const [index, item] of published.items.entries()) {
      expect(html).toContain(`name="summary-${index}"`);
      expect(html).toContain(item.key);
    }
    expect(html).not.toMatch(/name="(order|key|add|remove|with)"/);
    expect(html).not.toContain(XSS);
  });

  it('refuses without a reason or the CSRF token, and changes nothing', async () => {
    const client = await signIn(harness.app);
    const fields = draftFields(published, (f) => (f['summary-0'] = 'Changed.'));
    const noReason = await client.post(path, { ...fields, reason: '  ' });
    expect(noReason.status).toBe(400);
    const noCsrf = await client.post(path, { ...fields, reason: 'why' }, { csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(await store.editions.get(WEEK)).toEqual(published);
    expect(await store.revisions.list(WEEK)).toEqual([]);
  });

  it('publishes revision 2 through digest correct, audited with the editor; items keep their set and order', async () => {
    const client = await signIn(harness.app);
    const reason = 'The first summary misread the benchmark';
    const fields = draftFields(published, (f) => {
      f['summary-0'] = 'The corrected summary: 3 points, not 30.';
      f['level-1'] = 'Advanced';
      // What a hand-made form might try: reorder, add, drop. None of these names means anything to a correction.
      f.order = [...published.items.map((item) => item.key)].reverse().join('\n');
      f.key = 'https://example.com/an-added-post';
      f['title-99'] = 'An item that is not in the edition';
    });
    const response = await client.post(path, { ...fields, reason });
    expect(response.status, await response.clone().text()).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin/week/${WEEK}?done=corrected`);

    const corrected = (await store.editions.get(WEEK))!;
    expect(corrected.items.map((item) => item.key)).toEqual(published.items.map((item) => item.key));
    expect(corrected.items[0]!.summary).toBe('The corrected summary: 3 points, not 30.');
    expect(corrected.items[1]!.level).toBe('Advanced');
    expect(corrected.corrections).toMatchObject([{ revision: 2, reason, editor: EDITOR.email }]);
    expect((await store.revisions.list(WEEK)).map((entry) => entry.revision)).toEqual([1, 2]);
    const audit = await store.desk.listAudit({ limit: 10 });
    expect(audit.find((entry) => entry.action === 'correct')).toMatchObject({
      editor: EDITOR.email,
      week: WEEK,
      detail: { revision: 2, reason },
    });
    const live = await readFile(join(harness.siteDir, WEEK, 'index.html'), 'utf8');
    expect(live).toContain('The corrected summary: 3 points, not 30.');
    expect(live).toContain('Corrected on');

    // The same draft again changes nothing: refused, no revision 3.
    const again = await client.post(path, { ...draftFields(corrected), reason: 'again' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('changes nothing');
    expect((await store.revisions.list(WEEK)).map((entry) => entry.revision)).toEqual([1, 2]);
  });
});
