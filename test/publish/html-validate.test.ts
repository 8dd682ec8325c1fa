// html-validate (recommended rules) on every kind of site page, with real and with hostile content.
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { siteFiles } from '../../src/publish/publish-site.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { publishedImages } from './_images.js';
import { xssEdition } from './_xss-edition.js';

const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

async function errorsOf(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map(
      (message) => `${message.ruleId} (${message.line}:${message.column}): ${message.message}`,
    ),
  );
}

describe('html-validate', () => {
  const hostile = { ...xssEdition(), date: '2026-05-11' };
  const editions = [...weeklyEditions(2), hostile];
  const files = siteFiles({
    editions,
    baseUrl: 'https://digest.example.org/',
    images: publishedImages(editions),
    // publish.identity's look: the accent in the stylesheet, the logo in every page's header.
    look: { accentColor: '#8a2be2', logoUrl: 'https://cdn.example.net/logo.png?v=1&w=64' },
  });
  const pages = [
    '2026-05-04/index.html',
    '2026-05-11/index.html',
    'index.html',
    '404.html',
    'search/index.html',
  ];

  for (const path of pages) {
    it(`reports 0 errors on ${path}`, async () => {
      const html = files.get(path);
      expect(typeof html).toBe('string');
      expect(await errorsOf(html as string)).toEqual([]);
    });
  }
});
