import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderEditionMarkdown } from '../../src/publish/markdown.js';
import { referenceEdition } from '../support/reference-edition.js';
import { publishedImages } from './_images.js';
import { liveMarkup, xssEdition } from './_xss-edition.js';

function parsedBack(markdown: string) {
  const html = marked.parse(markdown, { async: false });
  return parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
}

describe('renderEditionMarkdown', () => {
  const edition = referenceEdition();
  const images = publishedImages([edition]);
  const markdown = renderEditionMarkdown(edition, {
    pageUrl: 'https://digest.example.org/2026-05-04/',
    siteUrl: 'https://digest.example.org/',
    images,
  });
  const document = parsedBack(markdown);

  it('parses back (marked) into the title, date line, intro and one linked heading per item', () => {
    expect(document.querySelector('h1')?.textContent).toBe(edition.title);
    expect(document.querySelector('p em')?.textContent).toBe('LLM News Digest · May 4, 2026 · 12 papers');
    const headings = Array.from(document.querySelectorAll('h2'));
    expect(headings.map((heading) => heading.textContent)).toEqual(edition.items.map((item) => item.title));
    expect(headings.map((heading) => heading.querySelector('a')?.getAttribute('href'))).toEqual(
      edition.items.map((item) => item.url),
    );
  });

  it('keeps summaries, three takeaways per item, images with alt text and the arXiv link', () => {
    const text = document.body.textContent ?? '';
    for (const item of edition.items) {
      expect(text).toContain(item.summary);
      for (const takeaway of item.takeaways) expect(text).toContain(takeaway);
    }
    expect(document.querySelectorAll('ul li')).toHaveLength(36);
    const image = document.querySelector('img');
    expect(image?.getAttribute('alt')).toBe(edition.items[2]!.title);
    // The site's published copy, never the image host.
    expect(image?.getAttribute('src')).toBe(
      `https://digest.example.org/${images.get(edition.items[2]!.image!)!.path}`,
    );
    expect(document.querySelectorAll('img')).toHaveLength(images.size);
    const arxiv = Array.from(document.querySelectorAll('a')).find(
      (a) => a.textContent === 'arXiv:2604.24819',
    );
    expect(arxiv?.getAttribute('href')).toBe('https://arxiv.org/abs/2604.24819');
    expect(Array.from(document.querySelectorAll('a')).at(-1)?.getAttribute('href')).toBe(
      'https://digest.example.org/2026-05-04/',
    );
  });

  it('keeps hostile fields as text: no raw HTML, no non-http links after parsing', () => {
    const hostile = xssEdition();
    const page = parsedBack(renderEditionMarkdown(hostile));
    expect(liveMarkup(page.body)).toEqual([]);
    expect(page.querySelector('h1')?.textContent).toBe(hostile.title);
    expect(Array.from(page.querySelectorAll('h2')).map((heading) => heading.textContent)).toEqual(
      hostile.items.map((item) => item.title),
    );
    expect(page.querySelectorAll('h2 a')).toHaveLength(1); // only the https URL of item 6 is linked
  });
});
