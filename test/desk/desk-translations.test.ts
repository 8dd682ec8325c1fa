// The desk's translations page through app.request() on a real PGlite store: each language beside the original,
// the editor's corrections saved (CSRF checked, audited, kept apart from the model's text), source text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EditionTranslation } from '../../src/core/types.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { type Browserish, createDeskHarness, type DeskHarness, signIn, WEEK, XSS } from './_desk.js';

describe('desk translations', () => {
  let store: Store;
  let harness: DeskHarness;
  let editor: Browserish;
  let generated: EditionTranslation;

  beforeAll(async () => {
    store = await createTestStore();
    harness = await createDeskHarness(store, { languages: ['en', 'de'] });
    const edition = (await store.editions.get(WEEK))!;
    generated = {
      language: 'de',
      title: `Agenten ${XSS}`,
      intro: 'Diese Ausgabe bringt vier Beiträge.',
      items: Object.fromEntries(
        edition.items.map((item) => [
          item.key,
          {
            summary: `[de] ${item.summary}`,
            takeaways: item.takeaways.map((line) => `[de] ${line}`) as [string, string, string],
          },
        ]),
      ),
      writer: 'openai:gpt-4.1-mini',
    };
    await store.translations.save(WEEK, generated, [
      'de: "x" summary kept in en: the translation lost "GPT-4o"',
    ]);
    editor = await signIn(harness.app);
  });
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  it("shows each language beside the original, with the check's warnings, text escaped", async () => {
    const board = await (await editor.get(`/admin/week/${WEEK}`)).text();
    expect(board).toContain(`/admin/week/${WEEK}/translations`);
    const response = await editor.get(`/admin/week/${WEEK}/translations`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('Deutsch (de)');
    expect(page).toContain('lost &quot;GPT-4o&quot;');
    expect(page).toContain('Diese Ausgabe bringt vier Beiträge.');
    expect(page).not.toContain('<script>window.__pwned');
    const edition = (await store.editions.get(WEEK))!;
    expect(page).toContain(
      `[de] ${edition.items[0]!.takeaways[0]}`.replace(/&/g, '&amp;').replace(/'/g, '&#39;').slice(0, 40),
    );
  });

  it("saves the editor's version (audited), keeps it over a new translation, refuses a POST without CSRF", async () => {
    const edition = (await store.editions.get(WEEK))!;
    const fields: Record<string, string> = {
      language: 'de',
      title: 'Agenten in der Praxis',
      intro: 'Vier Beiträge.',
    };
    edition.items.forEach((item, index) => {
      fields[`key:${index}`] = item.key;
      fields[`summary:${index}`] = index === 0 ? 'Von Hand übersetzt.' : `[de] ${item.summary}`;
      for (const number of [1, 2, 3])
        fields[`takeaway${number}:${index}`] = `[de] ${item.takeaways[number - 1]}`;
    });
    expect((await editor.post(`/admin/week/${WEEK}/translation`, fields, { csrf: null })).status).toBe(403);
    const saved = await editor.post(`/admin/week/${WEEK}/translation`, fields);
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/admin/week/${WEEK}/translations?done=translation`);
    const [stored] = await store.translations.list(WEEK);
    expect(stored).toMatchObject({
      edited: true,
      translation: { title: 'Agenten in der Praxis', intro: 'Vier Beiträge.' },
    });
    expect(stored!.translation.items[edition.items[0]!.key]!.summary).toBe('Von Hand übersetzt.');
    expect((await store.desk.listAudit({ week: WEEK })).map((entry) => entry.action)).toContain(
      'translation-edit',
    );
    // A new translation from the model replaces the generated text; the editor's version still wins.
    await store.translations.save(WEEK, { ...generated, title: 'Neu übersetzt' }, []);
    expect((await store.translations.list(WEEK))[0]!.translation.title).toBe('Agenten in der Praxis');

    const empty = await editor.post(`/admin/week/${WEEK}/translation`, { ...fields, intro: '  ' });
    expect(empty.status).toBe(400);
    const unknown = await editor.post(`/admin/week/${WEEK}/translation`, { ...fields, language: 'fr' });
    expect(unknown.status).toBe(400);
  });
});
