import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { sourceName } from '../../src/core/source-names.js';
import { safeUrl } from '../../src/core/urls.js';
import { renderEditionHtml, renderFooter } from '../../src/publish/edition-html.js';
import { toItemView } from '../../src/publish/item-view.js';
import { referenceEdition } from '../support/reference-edition.js';
import { publishedImages } from './_images.js';
import { largeEdition } from './_large-edition.js';

function documentOf(html: string) {
  return parseHTML(html).document;
}

/** The page's text as a reader of the reference sees it: image alt text included, one line per block. */
function cardLines(card: Element): string[] {
  const lines: string[] = [];
  for (const node of Array.from(
    card.querySelectorAll('img, .badge, h2, .authors, .summary, h3, .takeaways li, .meta > span'),
  )) {
    const text = node.tagName === 'IMG' ? (node.getAttribute('alt') ?? '') : (node.textContent ?? '');
    lines.push(text.trim());
  }
  return lines;
}

describe('renderEditionHtml', () => {
  const edition = referenceEdition();
  const images = publishedImages([edition]);
  const html = renderEditionHtml(edition, { baseUrl: 'https://digest.example.org/', images });
  const document = documentOf(html);

  it('has the reference header: name, themed title, date line and intro', () => {
    expect(document.querySelector('.site-name')?.textContent).toBe('LLM News Digest');
    expect(document.querySelector('h1')?.textContent).toBe('Agents in Production, Safety Under Pressure');
    expect(document.querySelector('.dateline')?.textContent).toBe('May 4, 2026 · 12 papers');
    expect(document.querySelector('.intro')?.textContent).toBe(edition.intro);
  });

  it('renders one card per item in the reference order: image, level, title, authors, summary, takeaways, footer', () => {
    const cards = Array.from(document.querySelectorAll('li.card'));
    expect(cards).toHaveLength(12);
    cards.forEach((card, index) => {
      const item = edition.items[index]!;
      const footer = item.arxivId
        ? `via ${sourceName(item.source)} · arXiv:${item.arxivId}`
        : `via ${sourceName(item.source)}`;
      expect(cardLines(card)).toEqual([
        ...(item.image ? [item.title] : []),
        item.level,
        item.title,
        ...(item.authors.length ? [item.authors.join(', ')] : []),
        item.summary,
        'Takeaways',
        ...item.takeaways,
        footer,
      ]);
      expect(card.querySelector('h2 a')?.getAttribute('href')).toBe(item.url);
    });
  });

  it('shows the published copy of each image with its dimensions, lazy loading and the title as alt text', () => {
    const image = document.querySelector('li.card img');
    expect(image?.getAttribute('src')).toBe(`../${images.get(edition.items[2]!.image!)!.path}`);
    expect(image?.getAttribute('alt')).toBe(edition.items[2]!.title);
    expect(image?.getAttribute('width')).toBe('600');
    expect(image?.getAttribute('height')).toBe('324');
    expect(image?.getAttribute('loading')).toBe('lazy');
  });

  it('links the arXiv id, and gives every item an anchor with a permalink', () => {
    const arxivLink = Array.from(document.querySelectorAll('.meta a')).find(
      (a) => a.textContent === 'arXiv:2604.24819',
    );
    expect(arxivLink?.getAttribute('href')).toBe('https://arxiv.org/abs/2604.24819');
    const ids = Array.from(document.querySelectorAll('li.card')).map((card) => card.id);
    expect(new Set(ids).size).toBe(12);
    expect(ids[2]).toBe('item-programming-with-data-test-driven-data-engineering-for-self');
    expect(document.querySelector(`a.permalink[href="#${ids[2]}"]`)).not.toBeNull();
  });

  it('carries canonical, Open Graph and Twitter tags, a favicon and a policy that allows no script', () => {
    expect(document.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
      'https://digest.example.org/2026-05-04/',
    );
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute('content')).toContain(
      edition.title,
    );
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute('content')).toMatch(
      /^https:\/\/digest\.example\.org\/img\/[0-9a-f]{24}\.png$/,
    );
    expect(document.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe(
      'summary_large_image',
    );
    expect(document.querySelector('link[rel=icon]')?.getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    const policy = document
      .querySelector('meta[http-equiv="Content-Security-Policy"]')
      ?.getAttribute('content');
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("img-src 'self' data:;");
    expect(policy).not.toContain('script-src');
    expect(policy).not.toContain('unsafe-inline');
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(html).toContain('prefers-color-scheme:dark');
    expect(html).toContain('@media print');
  });

  it('stays under 40 KB and is byte-for-byte deterministic', () => {
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(40 * 1024);
    expect(renderEditionHtml(referenceEdition(), { baseUrl: 'https://digest.example.org/', images })).toBe(
      html,
    );
  });

  it('keeps an author-heavy edition within 40 KB by shortening only the author lists', () => {
    const large = renderEditionHtml(largeEdition(), {
      baseUrl: 'https://digest.example.org/',
      fullSite: true,
      images,
    });
    expect(Buffer.byteLength(large)).toBeLessThanOrEqual(40 * 1024);
    const page = documentOf(large);
    expect(page.querySelector('.authors')?.textContent).toMatch(/, Author\d+ Surname-0 and \d+ more$/);
    expect(page.querySelector('.summary')?.textContent).toBe(largeEdition().items[0]!.summary);
    // The reference's longest list (47 authors) is shown whole.
    expect(document.querySelectorAll('.authors')[3]?.textContent).toBe(edition.items[5]!.authors.join(', '));
  });

  it('omits the canonical link without a base URL and says "1 paper" for one item', () => {
    const single = referenceEdition();
    single.items = single.items.slice(0, 1);
    const page = documentOf(renderEditionHtml(single));
    expect(page.querySelector('link[rel=canonical]')).toBeNull();
    expect(page.querySelector('.dateline')?.textContent).toBe('May 4, 2026 · 1 paper');
  });
});

describe('without published images', () => {
  it('renders no image element, no placeholder and no image host anywhere', () => {
    const edition = referenceEdition();
    const html = renderEditionHtml(edition, { baseUrl: 'https://digest.example.org/' });
    const page = documentOf(html);
    expect(page.querySelectorAll('img')).toHaveLength(0);
    expect(page.querySelector('meta[property="og:image"]')).toBeNull();
    expect(html).not.toContain('cdn-thumbnails.huggingface.co');
    // Every card still reads level, title, summary, takeaways, footer.
    expect(page.querySelectorAll('li.card .badge')).toHaveLength(12);
  });
});

describe('renderFooter', () => {
  const item = referenceEdition().items[2]!;
  const footer = (changes: Partial<typeof item>) =>
    renderFooter(toItemView({ ...item, ...changes }, { number: 1, anchor: 'item-1' })).toString();
  it('shows citations only when known, "0 citations" included', () => {
    expect(footer({ citations: null })).toMatch(/^via Hugging Face Daily Papers · <a /);
    expect(footer({ citations: 0 })).toMatch(/^0 citations · via Hugging Face Daily Papers/);
    expect(footer({ citations: 1 })).toMatch(/^1 citation · via Hugging Face Daily Papers/);
    expect(footer({ citations: 37, arxivId: null })).toBe('37 citations · via Hugging Face Daily Papers');
  });
});

describe('URL guard', () => {
  it('keeps http(s) URLs only', () => {
    expect(safeUrl('https://arxiv.org/abs/2604.24819')).toBe('https://arxiv.org/abs/2604.24819');
    expect(safeUrl(' JavaScript:alert(1)')).toBeNull();
    expect(safeUrl('java\tscript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeUrl('/relative/path')).toBeNull();
    expect(safeUrl('https://user:pass@example.com/')).toBeNull();
    expect(safeUrl('https://example.com/"><script>')).toBe('https://example.com/%22%3E%3Cscript%3E');
  });
});
