// What an editor does on the desk, through the routes: decisions stored per week with who and when (and kept by a
// rebuild), edits beside the generated text (kept by a rebuild, reverted), two editors on one item, escaping of
// edited text on every channel, a private-address URL refused, approve → publish.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import {
  createDeskHarness,
  type DeskHarness,
  EDITOR,
  rebuildOffline,
  SECOND_EDITOR,
  signIn,
  WEEK,
  XSS,
} from './_desk.js';

const PAYLOAD = '<script>window.__pwned=1</script><b onmouseover="x()">bold</b>';

describe('editor desk actions', () => {
  const store = useTestStore();
  let harness: DeskHarness;

  beforeEach(async () => {
    harness = await createDeskHarness(store());
  });
  afterEach(async () => harness.close());

  const draftKeys = async () => (await store().editions.get(WEEK))!.items.map((item) => item.key);
  const rebuildWithCli = () => rebuildOffline(harness);

  it('shows the board: the draft beside every ranked candidate with its signals, filtered on the server', async () => {
    const client = await signIn(harness.app);
    const html = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(html).toContain('Draft edition: ');
    expect(html).toContain('Candidates (8 of 8)');
    // No "Swap for" menu comes with a candidate already chosen: each opens on an empty, required choice.
    const menus = html.match(/<select id="swap-\d+" name="with" required><option value="">/g) ?? [];
    expect(menus.length).toBe((html.match(/<select id="swap-/g) ?? []).length);
    expect(menus.length).toBeGreaterThan(1);
    for (const menu of html.match(/<select id="swap-[\s\S]*?<\/select>/g) ?? [])
      expect(menu).not.toContain('selected');
    for (const column of ['Score', 'Relevance', 'Triage', 'Upvotes', 'Citations', 'Why'])
      expect(html).toContain(`>${column}</th>`);
    expect(html).toContain('Chosen: rank 1 by score.');
    expect(html).toContain('Left out: below the cut (4 items).');
    const searched = await (await client.get(`/admin/week/${WEEK}?q=Paper+7`)).text();
    expect(searched).toContain('Candidates (1 of 8)');
    const notChosen = await (await client.get(`/admin/week/${WEEK}?show=candidates`)).text();
    expect(notChosen).toContain('Candidates (4 of 8)');
    // Source text is data on the board too.
    expect(html).not.toContain(XSS);
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  });

  it('pins, skips, swaps, reorders and sets the count; each stored with who and when and kept by a rebuild', async () => {
    const client = await signIn(harness.app);
    const first = await draftKeys();
    const outside = (await store().items.candidates({ start: '2026-04-28', end: WEEK }))
      .map((item) => item.key)
      .filter((key) => !first.includes(key));

    expect(
      (await client.post(`/admin/week/${WEEK}/decide`, { action: 'pin', key: outside[0]! })).status,
    ).toBe(303);
    expect(await draftKeys()).toContain(outside[0]);
    expect((await client.post(`/admin/week/${WEEK}/decide`, { action: 'skip', key: first[0]! })).status).toBe(
      303,
    );
    expect(await draftKeys()).not.toContain(first[0]);

    const current = await draftKeys();
    const swapOut = current.find((key) => key !== outside[0])!;
    await client.post(`/admin/week/${WEEK}/decide`, { action: 'swap', key: swapOut, with: outside[1]! });
    const swapped = await draftKeys();
    expect(swapped).toContain(outside[1]);
    expect(swapped).not.toContain(swapOut);
    expect(swapped.indexOf(outside[1]!)).toBe(current.indexOf(swapOut));

    await client.post(`/admin/week/${WEEK}/decide`, { action: 'down', key: swapped[0]! });
    const moved = await draftKeys();
    expect(moved[1]).toBe(swapped[0]);
    expect(moved[0]).toBe(swapped[1]);

    await client.post(`/admin/week/${WEEK}/count`, { count: '3' });
    expect(await draftKeys()).toHaveLength(3);
    const beforeRebuild = await draftKeys();

    const decisions = await store().decisions.list(WEEK);
    expect(decisions.map((decision) => [decision.itemKey, decision.decision, decision.decidedBy])).toEqual(
      expect.arrayContaining([
        [outside[0], 'pin', EDITOR.email],
        [first[0], 'skip', EDITOR.email],
        [swapOut, 'skip', EDITOR.email],
        [outside[1], 'pin', EDITOR.email],
      ]),
    );
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(EDITOR.email);
    expect(board).toContain('Decisions stored for this week');

    // The CLI's rebuild makes the same choices in the same order.
    await rebuildWithCli();
    expect(await draftKeys()).toEqual(beforeRebuild);

    const actions = (await store().desk.listAudit()).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['pin', 'skip', 'swap', 'move-down', 'count', 'rebuild']));
    const audit = await (await client.get('/admin/audit')).text();
    expect(audit).toContain('move-down');
  });

  it('refuses a private-address URL and says why; nothing is added', async () => {
    const client = await signIn(harness.app);
    const before = (await store().items.candidates({ start: '2026-04-28', end: WEEK })).length;
    for (const input of [
      'http://127.0.0.1:8080/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/post',
    ]) {
      const response = await client.post(`/admin/week/${WEEK}/add`, { input });
      expect(response.status, input).toBe(422);
      const html = await response.text();
      expect(html, input).toMatch(/private|not public|loopback|refused|link-local/i);
    }
    expect((await store().items.candidates({ start: '2026-04-28', end: WEEK })).length).toBe(before);
    const refused = (await store().desk.listAudit()).filter((entry) => entry.action === 'add-refused');
    expect(refused).toHaveLength(3);
  });

  it("keeps the editor's version beside the generated one, across a rebuild, and reverts to generated", async () => {
    const client = await signIn(harness.app);
    const key = (await draftKeys())[1]!;
    const generated = (await store().editions.get(WEEK))!.items[1]!;
    const page = await (await client.get(`/admin/week/${WEEK}/item?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain('name="version" value="0"');
    const saved = await client.post(`/admin/week/${WEEK}/edit`, {
      key,
      version: '0',
      summary: 'A tighter summary written by the editor.',
      takeaway1: generated.takeaways[0],
      takeaway2: generated.takeaways[1],
      takeaway3: 'An editor takeaway.',
      level: 'Advanced',
    });
    expect(saved.status).toBe(303);
    let item = (await store().editions.get(WEEK))!.items.find((entry) => entry.key === key)!;
    expect(item.summary).toBe('A tighter summary written by the editor.');
    expect(item.level).toBe('Advanced');
    const rows = await store().desk.edits(WEEK);
    expect(rows.find((row) => row.field === 'summary')?.generated).toBe(generated.summary);
    expect(rows.map((row) => row.field).sort()).toEqual(['level', 'summary', 'takeaways']);

    const shown = await (await client.get(`/admin/week/${WEEK}/item?key=${encodeURIComponent(key)}`)).text();
    expect(shown).toContain('<del>');
    expect(shown).toContain('<ins>');
    expect(shown).toContain('Revert summary to generated');

    await rebuildWithCli();
    item = (await store().editions.get(WEEK))!.items.find((entry) => entry.key === key)!;
    expect(item.summary).toBe('A tighter summary written by the editor.');
    expect((await store().desk.edits(WEEK)).find((row) => row.field === 'summary')?.generated).toBe(
      generated.summary,
    );

    const reverted = await client.post(`/admin/week/${WEEK}/revert`, { key, field: 'summary', version: '1' });
    expect(reverted.status).toBe(303);
    item = (await store().editions.get(WEEK))!.items.find((entry) => entry.key === key)!;
    expect(item.summary).toBe(generated.summary);
    expect(item.level).toBe('Advanced');
  });

  it("corrects an item's practitioner facts: the editor's line is shown everywhere and kept by a rebuild", async () => {
    const client = await signIn(harness.app);
    const key = (await draftKeys())[0]!;
    const generated = (await store().editions.get(WEEK))!.items[0]!;
    const page = await (await client.get(`/admin/week/${WEEK}/item?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain('name="facts"');
    const form = {
      key,
      version: '0',
      summary: generated.summary,
      takeaway1: generated.takeaways[0],
      takeaway2: generated.takeaways[1],
      takeaway3: generated.takeaways[2],
      level: generated.level,
    };
    // A form without the field leaves the facts alone.
    expect((await client.post(`/admin/week/${WEEK}/edit`, form)).status).toBe(303);
    expect((await store().desk.edits(WEEK)).some((row) => row.field === 'facts')).toBe(false);
    const saved = await client.post(`/admin/week/${WEEK}/edit`, {
      ...form,
      facts: `Code https://github.com/example/repo · Apache-2.0 · 8×H100 · ${PAYLOAD}`,
    });
    expect(saved.status).toBe(303);
    const item = (await store().editions.get(WEEK))!.items.find((entry) => entry.key === key)!;
    expect(item.facts?.map((fact) => [fact.kind, fact.label, fact.url])).toEqual([
      ['code', 'Code', 'https://github.com/example/repo'],
      ['licence', 'Apache-2.0', null],
      ['compute', '8×H100', null],
      ['benchmarks', PAYLOAD, null],
    ]);
    await rebuildWithCli();
    const rebuilt = (await store().editions.get(WEEK))!.items.find((entry) => entry.key === key)!;
    expect(rebuilt.facts).toEqual(item.facts);
    const html = await readFile(join(harness.draftDir, WEEK, 'index.html'), 'utf8');
    expect(html).toContain(
      '<p class="facts"><a href="https://github.com/example/repo">Code</a> · Apache-2.0 · 8×H100 · ',
    );
    expect(html).not.toContain(PAYLOAD);
  });

  it('tells the later of two editors that the item changed, and shows both versions', async () => {
    const first = await signIn(harness.app);
    const second = await signIn(harness.app, SECOND_EDITOR);
    const fields = { key: '', version: '0' };
    const a = await first.post(`/admin/week/${WEEK}/edit`, {
      ...fields,
      title: 'Title by the first',
      intro: 'Intro one.',
    });
    expect(a.status).toBe(303);
    const b = await second.post(`/admin/week/${WEEK}/edit`, {
      ...fields,
      title: 'Title by the second',
      intro: 'Intro two.',
    });
    expect(b.status).toBe(409);
    const html = await b.text();
    expect(html).toContain('This item changed since you opened it');
    expect(html).toContain('Title by the first');
    expect(html).toContain('Title by the second');
    expect(html).toContain('name="version" value="1"');
    expect((await store().editions.get(WEEK))!.title).toBe('Title by the first');
    expect((await store().desk.listAudit()).some((entry) => entry.action === 'edit-refused')).toBe(true);
  });

  it('refuses an edit with an empty or unknown field value, naming the field', async () => {
    const client = await signIn(harness.app);
    const key = (await draftKeys())[0]!;
    const response = await client.post(`/admin/week/${WEEK}/edit`, {
      key,
      version: '0',
      summary: 'Fine.',
      takeaway1: 'a',
      takeaway2: 'b',
      takeaway3: 'c',
      level: 'Expert',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('&quot;level&quot; must be one of');
    expect(await store().desk.edits(WEEK)).toEqual([]);
  });

  it('renders script and markup in edited fields escaped on the board, the page, the email and the feeds', async () => {
    const client = await signIn(harness.app);
    const key = (await draftKeys())[0]!;
    await client.post(`/admin/week/${WEEK}/edit`, {
      key: '',
      version: '0',
      title: `Title ${PAYLOAD}`,
      intro: `Intro ${PAYLOAD}`,
    });
    const saved = await client.post(`/admin/week/${WEEK}/edit`, {
      key,
      version: '0',
      summary: `Summary ${PAYLOAD}`,
      takeaway1: `One ${PAYLOAD}`,
      takeaway2: 'Two.',
      takeaway3: 'Three.',
      level: 'Intermediate',
    });
    expect(saved.status).toBe(303);
    const pages = {
      board: await (await client.get(`/admin/week/${WEEK}`)).text(),
      item: await (await client.get(`/admin/week/${WEEK}/item?key=${encodeURIComponent(key)}`)).text(),
      page: await (await client.get(`/admin/week/${WEEK}/preview`)).text(),
      email: await (await client.get(`/admin/week/${WEEK}/preview/email`)).text(),
    };
    for (const [name, html] of Object.entries(pages)) {
      expect(html, name).not.toContain('<script>window.__pwned');
      expect(html, name).not.toContain('<b onmouseover');
      expect(html, name).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    }
    // The text part is plain text: the payload is just characters there.
    // The email preview applies the mail's inline styles, sandboxed: no script, an opaque origin.
    const emailPolicy = (await client.get(`/admin/week/${WEEK}/preview/email`)).headers.get(
      'content-security-policy',
    );
    expect(emailPolicy).toMatch(/^sandbox;/);
    expect(emailPolicy).toContain("style-src 'unsafe-inline'");
    expect(emailPolicy).not.toMatch(/script-src/);
    const pagePolicy = (await client.get(`/admin/week/${WEEK}/preview`)).headers.get(
      'content-security-policy',
    );
    expect(pagePolicy).not.toContain('unsafe-inline');
    expect(await (await client.get(`/admin/week/${WEEK}/preview/email.txt`)).text()).toContain(
      'window.__pwned=1',
    );

    const approvePage = await (await client.get(`/admin/week/${WEEK}/approve`)).text();
    expect(approvePage).toContain('reader(s) will get the mail');
    const approved = await client.post(`/admin/week/${WEEK}/approve`, {});
    expect(approved.status).toBe(303);
    for (const feed of ['feed.xml', 'atom.xml']) {
      const text = await readFile(join(harness.siteDir, feed), 'utf8');
      // Titles and summaries are plain-text fields (CDATA text); the entry's HTML carries the payload escaped.
      const htmlParts = text.replace(/<(title|description|summary)\b[^>]*>[\s\S]*?<\/\1>/g, '');
      expect(htmlParts, feed).toContain('Summary &lt;script&gt;window.__pwned=1&lt;/script&gt;');
      expect(htmlParts, feed).not.toContain('<script>window.__pwned');
      expect(htmlParts, feed).not.toContain('<b onmouseover');
    }
    const json = await readFile(join(harness.siteDir, 'feed.json'), 'utf8');
    expect(json).not.toContain('<script>');
    const published = await readFile(join(harness.siteDir, WEEK, 'index.html'), 'utf8');
    expect(published).toContain(`Title &lt;script&gt;`);
  });

  it('approves with one confirmation: subscribers and open flags shown, approval recorded, the site published', async () => {
    await store().subscribers.put('reader@example.org', 'reader@example.org', 'confirmed');
    await store().subscribers.put('pending@example.org', 'pending@example.org', 'pending');
    const client = await signIn(harness.app);
    const page = await (await client.get(`/admin/week/${WEEK}/approve`)).text();
    expect(page).toContain('<strong>1</strong> reader(s) will get the mail');
    expect(page).toContain('No open flags.');
    const response = await client.post(`/admin/week/${WEEK}/approve`, {});
    expect(response.status).toBe(303);
    expect((await store().desk.approval(WEEK))?.approvedBy).toBe(EDITOR.email);
    expect((await store().editions.get(WEEK))?.publishedAt).toBeTruthy();
    expect(await readFile(join(harness.siteDir, 'index.html'), 'utf8')).toContain('Test Digest');
    const board = await (await client.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain('Published edition (revision 1): ');
    expect(board).not.toContain('Draft edition');
    // A published week takes no more decisions.
    const late = await client.post(`/admin/week/${WEEK}/count`, { count: '2' });
    expect(late.status).toBe(409);
    const actions = (await store().desk.listAudit()).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['approve', 'publish']));
  });
});
