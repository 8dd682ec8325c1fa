// A translated edition keeps what the paper was read from: only the text is translated, so each takeaway's § link,
// the practitioner facts and the read note carry over into the language's site section and its mails.
import { describe, expect, it } from 'vitest';
import { applyTranslation } from '../../src/core/translation.js';
import type { Edition, EditionItem, EditionTranslation } from '../../src/core/types.js';
import { renderEmailHtml } from '../../src/publish/email-html.js';
import { renderEmailText } from '../../src/publish/email-text.js';
import { siteFiles } from '../../src/publish/publish-site.js';
import { referenceEdition } from '../support/reference-edition.js';

const BASE_URL = 'https://digest.example.org/';
const SECTION_URL = 'https://arxiv.org/html/2310.06825v1#S4';

function readInFull(): { edition: Edition; item: EditionItem } {
  const edition = referenceEdition();
  const paper = edition.items.find((entry) => entry.arxivId)!;
  const item: EditionItem = {
    ...paper,
    readFrom: 'full-text',
    support: [
      { quote: 'outperforms Llama 2 13B on all benchmarks', section: 'S4', label: '§4', url: SECTION_URL },
      null,
      null,
    ],
    facts: [
      { kind: 'code', label: 'Code', url: 'https://github.com/example/model', quote: 'code is released' },
      { kind: 'licence', label: 'Apache-2.0', url: null, quote: 'under the Apache 2.0 licence' },
    ],
  };
  edition.items = edition.items.map((entry) => (entry.key === paper.key ? item : entry));
  return { edition, item };
}

function german(edition: Edition, item: EditionItem): EditionTranslation {
  return {
    language: 'de',
    title: 'Agenten in der Praxis',
    intro: 'Diese Ausgabe bringt zwölf Beiträge.',
    items: {
      [item.key]: {
        summary: 'Eine deutsche Zusammenfassung des Papiers.',
        takeaways: ['Erste Erkenntnis.', 'Zweite Erkenntnis.', 'Dritte Erkenntnis.'],
      },
    },
    writer: edition.writer,
  };
}

describe('a translated edition of papers read in full', () => {
  const { edition, item } = readInFull();
  const translated = applyTranslation(edition, german(edition, item));
  const translatedItem = translated.items.find((entry) => entry.key === item.key)!;

  it('translates the text and keeps the § links, facts and what the paper was read from', () => {
    expect(translatedItem.summary).toBe('Eine deutsche Zusammenfassung des Papiers.');
    expect(translatedItem.takeaways[0]).toBe('Erste Erkenntnis.');
    expect(translatedItem.support).toEqual(item.support);
    expect(translatedItem.facts).toEqual(item.facts);
    expect(translatedItem.readFrom).toBe('full-text');
  });

  it("the language's site section shows the § link beside the translated takeaway and the facts line", () => {
    const files = siteFiles({
      editions: [edition],
      baseUrl: BASE_URL,
      languages: { configured: ['en', 'de'], translated: new Map([['de', [translated]]]) },
    });
    const page = files.get(`de/${edition.date}/index.html`) as string;
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(`<li>Erste Erkenntnis. <a class="src" href="${SECTION_URL}"`);
    expect(page).toContain('>§4</a>');
    expect(page).toContain(
      '<p class="facts"><a href="https://github.com/example/model">Code</a> · Apache-2.0</p>',
    );
  });

  it('the mails in that language carry them too', async () => {
    const text = renderEmailText(translated, { language: 'de' });
    expect(text).toContain(`Erste Erkenntnis. (§4: ${SECTION_URL})`);
    // Plain text has no links: the linked fact carries its address.
    expect(text).toContain('Code: https://github.com/example/model · Apache-2.0');
    const mail = await renderEmailHtml(translated, { language: 'de' });
    expect(mail).toContain('Erste Erkenntnis.');
    expect(mail).toMatch(new RegExp(`<a class="src" href="${SECTION_URL}"[^>]*>§4</a>`));
  });
});
