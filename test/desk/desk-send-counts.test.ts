// The send's confirmation counts who gets which version: readers per language of their mail (a language no longer
// offered, or none chosen, is the edition's own) and how many chose topics.
import { describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { signIn, useMailingDesk, WEEK } from './_desk.js';

describe("the send's confirmation, by readers' choices", () => {
  const store = useTestStore();
  const mailing = useMailingDesk(store, { languages: ['en', 'de'] });
  const _smtp = () => mailing.smtp();
  const harness = () => mailing.harness();

  it('counts readers per language of their mail and those who chose topics', async () => {
    const client = await signIn(harness().app);
    expect((await client.post(`/admin/week/${WEEK}/approve`, {})).status).toBe(303);
    const choose = async (address: string, language: string | null, topics: string[]) => {
      const reader = await store().subscribers.put(address, address, 'confirmed');
      if (language || topics.length)
        await store().preferences.set(reader.id, { language, topics, levels: [], onlyMyTopics: false });
    };
    await choose('ada@example.org', 'de', ['agents']);
    await choose('bo@example.org', 'fr', []);
    await choose('cy@example.org', null, []);
    await choose('di@example.org', 'de', []);

    const page = await (await client.get(`/admin/week/${WEEK}/send`)).text();
    expect(page).toContain('<caption>The 4 reader(s) by their choices</caption>');
    expect(page).toContain('<tr><td>de</td><td>2</td></tr><tr><td>en</td><td>2</td></tr>');
    expect(page).toContain('1 of them chose topics');
  });
});
