// One hostile edition through every channel — page, archive, email HTML and text, Markdown, RSS, Atom, JSON Feed,
// search index, sitemap — and a guard that no renderer escapes by hand (the templates in template.ts do it).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMParser, parseHTML } from 'linkedom';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/publish/email-files.js';
import { siteFiles } from '../../src/publish/publish-site.js';
import { html, md, raw, xml } from '../../src/publish/template.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { publishedImages } from './_images.js';
import { CONTROL_TEXT, liveMarkup, MARKDOWN_INJECTION, XSS_VECTORS, xssEdition } from './_xss-edition.js';

const PUBLISH = join(import.meta.dirname, '../../src/publish');
const BASE = 'https://digest.example.org/';
// C0/C1 controls other than tab, LF and CR, and bidirectional overrides/isolates.
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('no renderer escapes by hand', () => {
  it('src/publish calls no escape function outside the templates, and writes no entity itself', async () => {
    const files = (await readdir(PUBLISH)).filter((file) => file.endsWith('.ts') && file !== 'template.ts');
    expect(files.length).toBeGreaterThan(15);
    const offences: string[] = [];
    for (const file of files) {
      const lines = (await readFile(join(PUBLISH, file), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (/\bescape[A-Za-z]*\s*\(/i.test(line) || /&(?:amp|lt|gt|quot|#39|#x27);/.test(line))
          offences.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offences).toEqual([]);
  });

  it('the templates escape every interpolation and keep only same-kind fragments', () => {
    const text = `<a href="x" onclick='y'>&`;
    expect(html`<p title="${text}">${text}</p>`.toString()).toBe(
      '<p title="&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;">&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;</p>',
    );
    expect(html`<b>${html`<i>${text}</i>`}</b>`.toString()).toBe(
      '<b><i>&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;</i></b>',
    );
    expect(html`${['<a>', html`<b>`, null, false, 3]}`.toString()).toBe('&lt;a&gt;<b>3');
    expect(xml`<loc>${']]><x>\u0000'}</loc>`.toString()).toBe('<loc>]]&gt;&lt;x&gt; </loc>');
    // GFM may autolink a bare URL (its text is its address); nothing else becomes markup.
    expect(marked.parse(md`${MARKDOWN_INJECTION}`.toString(), { async: false })).not.toMatch(
      /<(img|b|code|h1|em)\b|href="javascript/,
    );
    expect(() => html`${md`x`}`).toThrow(TypeError);
    expect(() => md`${raw('<b>')}`).toThrow(TypeError);
  });
});

describe('a hostile edition on every channel', async () => {
  const hostile = { ...xssEdition(), date: '2026-05-11', publishedAt: '2026-05-11T09:00:00.000Z' };
  const editions = [...weeklyEditions(1), hostile];
  const images = publishedImages(editions);
  const files = siteFiles({ editions, baseUrl: BASE, images });
  const file = (path: string) => {
    const data = files.get(path);
    if (typeof data !== 'string') throw new Error(`no text file ${path}`);
    return data;
  };
  const email = await renderEmail(hostile, {
    baseUrl: BASE,
    images,
    email: { from: 'Digest <d@example.org>', to: ['r@example.org'], unsubscribeUrl: `${BASE}unsubscribe` },
  });

  function expectInertHtml(markup: string, where: string) {
    const { document } = parseHTML(markup);
    expect(liveMarkup(document), where).toEqual([]);
    expect(markup, where).not.toMatch(HIDDEN);
    return document;
  }

  it('edition page: every vector is text, no live markup, no control characters', () => {
    const document = expectInertHtml(file('2026-05-11/index.html'), 'page');
    const text = document.querySelector('main')?.textContent ?? '';
    for (const vector of XSS_VECTORS.slice(0, 8)) expect(text).toContain(vector);
    expect(text).toContain('[click me](javascript:alert(1))');
    expect(document.querySelectorAll('li.card')).toHaveLength(8);
  });

  it('archive front page', () => {
    const document = expectInertHtml(file('index.html'), 'archive');
    expect(document.querySelector('.latest h2')?.textContent).toBe(hostile.title);
  });

  it('email HTML: inert, and hostile links and images are not made live', () => {
    const document = expectInertHtml(email.html, 'email');
    expect(document.body.textContent).toContain(XSS_VECTORS[0]);
    for (const image of Array.from(document.querySelectorAll('img')))
      expect(image.getAttribute('src')).toMatch(/^https:\/\/digest\.example\.org\/img\//);
  });

  it('email text: the words stay, hidden characters go', () => {
    expect(email.text).not.toMatch(HIDDEN);
    expect(email.text).toContain('rlo gnp.exe');
    expect(email.text.replace(/\s+/g, ' ')).toContain(XSS_VECTORS[0]);
  });

  it('Markdown: parsed back, no live markup, no injected link, image, heading or list', () => {
    const markdown = file('2026-05-11/edition.md');
    expect(markdown).not.toMatch(HIDDEN);
    const parsed = parseHTML(
      `<!doctype html><html><body>${marked.parse(markdown, { async: false })}</body></html>`,
    ).document;
    expect(liveMarkup(parsed.body)).toEqual([]);
    // No disguised link: a GFM reader may autolink a bare URL of the text, but then the text shows the address.
    for (const link of Array.from(parsed.querySelectorAll('a'))) {
      const href = link.getAttribute('href') ?? '';
      if (href.includes('evil.example')) expect(link.textContent).toMatch(/^https:\/\/evil\.example\//);
    }
    expect(parsed.body.textContent).toContain('[click me](javascript:alert(1))');
    expect(Array.from(parsed.querySelectorAll('img')).map((img) => img.getAttribute('src'))).not.toContain(
      'https://evil.example/track.png',
    );
    expect(parsed.querySelectorAll('h1')).toHaveLength(1);
    expect(parsed.querySelectorAll('b, code')).toHaveLength(0);
    expect(parsed.body.textContent).toContain('[click me](javascript:alert(1))');
    expect(parsed.body.textContent).toContain('# injected heading');
  });

  for (const [name, path, tag] of [
    ['RSS', 'feed.xml', 'content:encoded'],
    ['Atom', 'atom.xml', 'content'],
  ] as const) {
    it(`${name}: well-formed XML without control characters; the entry's HTML is inert`, () => {
      const text = file(path);
      expect(text).not.toMatch(HIDDEN);
      const document = new DOMParser().parseFromString(text, 'text/xml') as unknown as Document;
      const entry = document.querySelector('item, entry');
      // RSS readers render title and description as HTML, so RSS carries them as escaped HTML (Atom: type="text").
      const shown = (value: string | null | undefined) =>
        name === 'RSS'
          ? (parseHTML(`<p>${value ?? ''}</p>`).document.querySelector('p')?.textContent ?? '')
          : value;
      expect(shown(entry?.querySelector('title')?.textContent?.trim())).toBe(hostile.title);
      // "]]>" in the intro cannot end a CDATA section early: the summary reads back whole.
      const summary = shown(entry?.querySelector('description, summary')?.textContent?.trim());
      expect(summary).toBe(hostile.intro.replace(/[\u0000-\u001f\u202a-\u202e]/g, ' ').replace(/\s+/g, ' '));
      const content = entry?.getElementsByTagName(tag)[0]?.textContent ?? '';
      expect(content).toContain('&lt;script&gt;');
      const parsed = expectInertHtml(content, `${name} content`);
      expect(parsed.querySelectorAll('h2')).toHaveLength(8);
    });
  }

  it('JSON Feed: valid JSON, inert content_html, no raw "<" anywhere in the file', () => {
    const text = file('feed.json');
    expect(text).not.toContain('<');
    const feed = JSON.parse(text);
    expect(feed.items[0].title).toBe(hostile.title);
    expectInertHtml(feed.items[0].content_html, 'JSON Feed content');
  });

  it('search index: valid JSON with the titles as text, no raw "<" or control characters', () => {
    const text = file('search-index.json');
    expect(text).not.toContain('<');
    expect(text).not.toMatch(HIDDEN);
    const index = JSON.parse(text);
    expect(index.editions[0]).toEqual(['2026-05-11', hostile.title]);
    expect(index.items[0][1]).toBe(hostile.items[0]!.title);
  });

  it('sitemap: well-formed XML', () => {
    const text = file('sitemap.xml');
    expect(text).toContain(`<loc>${BASE}2026-05-11/</loc>`);
    expect(text).not.toMatch(HIDDEN);
  });

  it('control characters become spaces, so a title reads the same on every channel', () => {
    const { document } = parseHTML(file('2026-05-11/index.html'));
    expect(document.querySelector('.intro')?.textContent).toContain(
      'nul bell ansi [31mred [0m rlo gnp.exe end',
    );
    expect(CONTROL_TEXT).toMatch(HIDDEN);
  });
});
