// Regenerating one item on the desk goes through the one LLM client: exactly one item call and its check (the fake
// LLM on loopback counts them), the usage meter's cost shown; the editor's version stays in place.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { createDeskHarness, type DeskHarness, signIn, WEEK } from './_desk.js';

describe('regenerate one item', () => {
  const store = useTestStore();
  let fake: FakeLlm;
  let harness: DeskHarness;

  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => fake.close());
  beforeEach(async () => {
    // Built offline (extractive): the model is asked only by the regeneration.
    harness = await createDeskHarness(store(), {
      llm: { write: 'openai:gpt-4.1-mini' },
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.baseURL },
    });
    fake.requests.length = 0;
  });
  afterEach(async () => harness.close());

  it('makes exactly 1 item call + its check, shows the cost, and keeps the editor’s version', async () => {
    const client = await signIn(harness.app);
    const [first, second] = (await store().editions.get(WEEK))!.items;
    await client.post(`/admin/week/${WEEK}/edit`, {
      key: second!.key,
      version: '0',
      summary: 'The editor wrote this.',
      takeaway1: second!.takeaways[0],
      takeaway2: second!.takeaways[1],
      takeaway3: second!.takeaways[2],
      level: second!.level,
    });

    const response = await client.post(`/admin/week/${WEEK}/regenerate`, { key: first!.key, writer: 'llm' });
    expect(response.status).toBe(303);
    expect(fake.count('item')).toBe(1);
    expect(fake.count('check')).toBe(1);
    expect(fake.count()).toBe(2);
    const location = response.headers.get('location')!;
    expect(location).toContain('calls=2');
    const page = await (await client.get(location)).text();
    expect(page).toMatch(/Regenerated with 2 model call\(s\), \$\d+\.\d{4}/);

    const edition = (await store().editions.get(WEEK))!;
    expect(edition.items[0]!.writer).toBe('openai:gpt-4.1-mini');
    expect(edition.items[0]!.summary).not.toBe(first!.summary);

    fake.requests.length = 0;
    await client.post(`/admin/week/${WEEK}/regenerate`, { key: second!.key, writer: 'llm' });
    expect(fake.count('item')).toBe(1);
    const after = (await store().editions.get(WEEK))!;
    expect(after.items[1]!.summary).toBe('The editor wrote this.');
    const row = (await store().desk.edits(WEEK)).find(
      (entry) => entry.itemKey === second!.key && entry.field === 'summary',
    );
    expect(row?.generated).not.toBe(second!.summary);
    expect(row?.edited).toBe('The editor wrote this.');
  });

  it('writes a paper from the full text an earlier build stored, fetching nothing', async () => {
    const client = await signIn(harness.app);
    const [first] = (await store().editions.get(WEEK))!.items;
    const { arxivId } = (await store().items.get(first!.key))!;
    const marker = 'The stored results section says the retry policy cut failures by 47 percent.';
    await store().paperTexts.save({
      arxivId: arxivId!,
      version: 1,
      status: 'read',
      url: `https://arxiv.org/html/${arxivId}v1`,
      note: null,
      paper: {
        arxivId: arxivId!,
        version: 1,
        url: `https://arxiv.org/html/${arxivId}v1`,
        title: first!.title,
        sections: [{ id: 'S4', number: '4', title: 'Results', kind: 'section', text: marker, captions: [] }],
        links: [],
      },
      fetchedAt: '2026-05-04T10:00:00.000Z',
    });
    const response = await client.post(`/admin/week/${WEEK}/regenerate`, { key: first!.key, writer: 'llm' });
    expect(response.status).toBe(303);
    const itemCalls = fake.requests.filter((request) => request.kind === 'item');
    // The writer's first call quotes the stored section as the source text (a repair after the check may follow).
    expect(itemCalls[0]!.user).toContain(`<section id="S4">`);
    expect(itemCalls[0]!.user).toContain(marker);
  });

  it('regenerates with the extractive writer without any model call', async () => {
    const client = await signIn(harness.app);
    const [first] = (await store().editions.get(WEEK))!.items;
    const response = await client.post(`/admin/week/${WEEK}/regenerate`, {
      key: first!.key,
      writer: 'extractive',
    });
    expect(response.status).toBe(303);
    expect(fake.count()).toBe(0);
    expect((await store().editions.get(WEEK))!.items[0]!.writer).toBe('extractive');
  });

  it("regenerates the title and intro with exactly 1 edition call; an editor's intro stays", async () => {
    const client = await signIn(harness.app);
    const built = (await store().editions.get(WEEK))!;
    const edited = await client.post(`/admin/week/${WEEK}/edit`, {
      key: '',
      version: '0',
      title: built.title,
      intro: 'The editor wrote this intro.',
    });
    expect(edited.status).toBe(303);
    const page = await (await client.get(`/admin/week/${WEEK}/item?key=`)).text();
    expect(page).toContain('Regenerate with the LLM');

    const response = await client.post(`/admin/week/${WEEK}/regenerate`, { key: '', writer: 'llm' });
    expect(response.status).toBe(303);
    expect(fake.count('edition')).toBe(1);
    expect(fake.count()).toBe(1);
    expect(response.headers.get('location')).toContain('calls=1');
    const after = (await store().editions.get(WEEK))!;
    expect(after.writer).toBe('openai:gpt-4.1-mini');
    expect(after.title).not.toBe(built.title);
    expect(after.intro).toBe('The editor wrote this intro.');
    const audit = await store().desk.listAudit({ week: WEEK });
    expect(audit.some((entry) => entry.action === 'regenerate' && entry.itemKey === null)).toBe(true);
  });
});
