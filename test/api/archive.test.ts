// The JSON API in another language (?lang=de) and its topic filter over every topic the ranking knows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import type { ServerApp } from '../../src/server/index.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { BASE_URL, publishArchive } from '../support/published-archive.js';
import { composedApp } from '../support/root.js';

const SECTION_URL = 'https://arxiv.org/html/2604.00001v1#S4';

describe('JSON API in other languages', () => {
  let store: Store;
  let siteDir: string;
  let latest: Edition;
  let app: ServerApp;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON came back
  const json = async (path: string) => (await (await app.request(path)).json()) as Record<string, any>;

  beforeAll(async () => {
    store = await createTestStore();
    const published = (await publishArchive(store)).at(-1)!;
    // Its first item read in full: a § link on the first takeaway and a facts line (saved again, still published).
    latest = {
      ...published,
      items: published.items.map((item, index) =>
        index === 0
          ? {
              ...item,
              readFrom: 'full-text' as const,
              support: [
                { quote: 'beats the baseline', section: 'S4', label: '§4', url: SECTION_URL },
                null,
                null,
              ],
              facts: [
                {
                  kind: 'code' as const,
                  label: 'Code',
                  url: 'https://github.com/example/code',
                  quote: 'code',
                },
              ],
            }
          : item,
      ),
    };
    await store.editions.save(latest);
    const first = latest.items[0]!;
    await store.translations.save(
      latest.date,
      {
        language: 'de',
        title: 'Agenten in der Praxis',
        intro: 'Diese Ausgabe bringt 12 Beiträge.',
        items: {
          [first.key]: { summary: `[de] ${first.summary}`, takeaways: ['[de] a', '[de] b', '[de] c'] },
        },
        writer: 'openai:gpt-4.1-mini',
      },
      [],
    );
    siteDir = await mkdtemp(join(tmpdir(), 'digest-api-lang-'));
    app = await composedApp({
      store,
      siteDir,
      config: { publish: { baseUrl: BASE_URL }, languages: ['en', 'de'] },
    });
  });
  afterAll(async () => {
    await store?.close();
    if (siteDir) await rm(siteDir, { recursive: true, force: true });
  });

  it('?lang=de answers the translation with links into the German section; untranslated text stays original', async () => {
    const german = await json(`/api/v1/editions/${latest.date}?lang=de`);
    expect(german).toMatchObject({
      language: 'de',
      title: 'Agenten in der Praxis',
      intro: 'Diese Ausgabe bringt 12 Beiträge.',
      links: { page: `${BASE_URL}de/${latest.date}/`, api: `/api/v1/editions/${latest.date}?lang=de` },
    });
    expect(german.items[0].summary).toBe(`[de] ${latest.items[0]!.summary}`);
    expect(german.items[0].edition.permalink).toMatch(new RegExp(`^${BASE_URL}de/${latest.date}/#`));
    expect(german.items[1].summary).toBe(latest.items[1]!.summary);
    // Only the text is translated: the § links, facts and what the paper was read from are the original's.
    expect(german.items[0]).toMatchObject({
      readFrom: 'full-text',
      takeawaySources: [{ label: '§4', url: SECTION_URL }, null, null],
      facts: [{ kind: 'code', label: 'Code', url: 'https://github.com/example/code' }],
    });
    const english = await json(`/api/v1/editions/${latest.date}`);
    expect(english.title).toBe(latest.title);
    expect(english.language).toBe('en');
  });

  it('search ?lang=de returns the translated text of hits whose edition has it', async () => {
    const first = latest.items[0]!;
    const word = first.title.split(/\s+/).find((part) => /^[A-Za-z]{5,}$/.test(part))!;
    const results = (await json(`/api/v1/search?q=${encodeURIComponent(word)}&lang=de`)).results as {
      key: string;
      summary: string;
      edition: { date: string; permalink: string };
    }[];
    const hit = results.find((result) => result.key === first.key && result.edition.date === latest.date)!;
    expect(hit.summary).toBe(`[de] ${first.summary}`);
    expect(hit.edition.permalink).toMatch(new RegExp(`^${BASE_URL}de/`));
  });

  it('a language without a translation is 404 naming lang; a malformed one 400', async () => {
    const missing = await app.request(`/api/v1/editions/${latest.date}?lang=fr`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { field: 'lang' } });
    const bad = await app.request(`/api/v1/editions/${latest.date}?lang=${encodeURIComponent('<x>')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: 'lang' } });
  });

  it('filters search by any topic of the ranking, out-of-scope ones included', async () => {
    const robotics = await app.request('/api/v1/search?q=safety&topic=robotics');
    expect(robotics.status).toBe(200);
    const unknown = await app.request('/api/v1/search?q=safety&topic=astrology');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { field: 'topic' } });
  });
});
