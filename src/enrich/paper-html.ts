// A paper's HTML rendering (arXiv's LaTeXML pages at arxiv.org/html, and ar5iv's) as sections of plain text.
// LaTeXML marks its structure: `section.ltx_section` with the anchor ids the page links to (S4, A1), `h2.ltx_title`
// holding a `.ltx_tag` number, `.ltx_abstract`, figures with `.ltx_caption`, `.ltx_bibliography`, `.ltx_appendix`,
// MathML `math` with its TeX in `alttext`. Kept: the title, the abstract, each numbered section's paragraphs and
// captions. Dropped: references, navigation and page chrome, display equations, footnote marks, and appendices past
// a budget. The page is untrusted: nothing here follows a link or runs a script, and the result is plain text.
import { parseHTML } from 'linkedom';
import { collapse } from '../core/text.js';
import type { PaperLink, PaperSection, PaperText } from '../core/types.js';

/** Appendices are kept, in order, while their text fits this many characters in all. */
export const APPENDIX_BUDGET_CHARS = 20_000;
/** One section's text is cut at this many characters (a results section of tables can run to 40 KB). */
export const SECTION_TEXT_LIMIT = 40_000;

const CHROME = [
  'script',
  'style',
  'noscript',
  'nav',
  'header',
  'footer',
  'dialog',
  'button',
  'form',
  '.ltx_page_navbar',
  '.ltx_page_header',
  '.ltx_page_footer',
  '.ltx_TOC',
  '.ar5iv-footer',
  '.ltx_authors',
  '.ltx_dates',
  '.ltx_bibliography',
  '.ltx_equation',
  '.ltx_equationgroup',
  '.ltx_note',
  '#watermark-tr',
  '.ltx_watermark',
].join(', ');

const BLOCKS = new Set(
  'P DIV LI UL OL DL DT DD H1 H2 H3 H4 H5 H6 TABLE TR SECTION ARTICLE BLOCKQUOTE PRE FIGURE FIGCAPTION BR'.split(
    ' ',
  ),
);

type Element = ReturnType<typeof parseHTML>['document']['body'];

export interface ParsePaperOptions {
  arxivId: string;
  /** The URL the page was read from (after redirects). */
  url: string;
}

/** Sections of a LaTeXML page, or null when the page is not one (no abstract and no numbered section). */
export function parsePaperHtml(html: string, options: ParsePaperOptions): PaperText | null {
  const { document } = parseHTML(html);
  const root = (document.querySelector('article.ltx_document') ?? document.body) as Element | null;
  if (!root) return null;
  const version = versionOf(document.querySelector('#watermark-tr')?.textContent ?? '', options.url);
  const title = collapse(textOf(root.querySelector('h1.ltx_title') as Element | null));
  for (const math of all(root, 'math')) math.replaceWith(document.createTextNode(mathText(math)));
  const links = bodyLinks(root);
  for (const element of all(root, CHROME)) element.remove();

  const sections: PaperSection[] = [];
  const abstract = root.querySelector('.ltx_abstract') as Element | null;
  if (abstract) {
    abstract.querySelector('.ltx_title')?.remove();
    const text = lines(abstract);
    if (text)
      sections.push({
        id: 'abstract',
        number: null,
        title: 'Abstract',
        kind: 'abstract',
        text,
        captions: [],
      });
  }
  let appendixChars = 0;
  for (const element of all(root, 'section.ltx_section, section.ltx_appendix')) {
    if (element.parentElement?.closest('section.ltx_section, section.ltx_appendix')) continue;
    const section = readSection(element);
    if (!section) continue;
    if (section.kind === 'appendix') {
      appendixChars += section.text.length;
      if (appendixChars > APPENDIX_BUDGET_CHARS) continue;
    }
    sections.push(section);
  }
  if (!sections.some((section) => section.kind === 'section')) return null;
  return {
    arxivId: options.arxivId,
    version,
    url: options.url.replace(/[#?].*$/, ''),
    title,
    sections,
    links,
  };
}

function readSection(element: Element): PaperSection | null {
  const id = element.getAttribute('id');
  const heading = element.querySelector('.ltx_title') as Element | null;
  if (!id || !heading) return null;
  const tag = heading.querySelector('.ltx_tag') as Element | null;
  const number = tag
    ? collapse(textOf(tag))
        .replace(/^Appendix\s+/i, '')
        .replace(/[.:]$/, '') || null
    : null;
  tag?.remove();
  const title = collapse(textOf(heading));
  heading.remove();
  const captions: string[] = [];
  for (const figure of all(element, 'figure')) {
    if (figure.parentElement?.closest('figure')) continue;
    const caption = figure.querySelector('.ltx_caption, figcaption') as Element | null;
    const text = caption ? collapse(textOf(caption)) : '';
    if (text) captions.push(text);
  }
  for (const figure of all(element, 'figure')) figure.remove();
  const text = lines(element).slice(0, SECTION_TEXT_LIMIT);
  if (!text && captions.length === 0) return null;
  const kind = element.classList.contains('ltx_appendix') ? 'appendix' : 'section';
  return { id, number, title, kind, text, captions };
}

/** The version the page states: arxiv.org/html's watermark ("arXiv:2310.06825v1 [cs.CL] …") or its URL. */
function versionOf(watermark: string, url: string): number | null {
  const stated = /arXiv:\S+?v(\d+)\b/.exec(watermark)?.[1] ?? /v(\d+)\/?(?:[#?].*)?$/.exec(url)?.[1];
  return stated ? Number(stated) : null;
}

const LINK_CONTEXT_CHARS = 400;

function bodyLinks(root: Element): PaperLink[] {
  const found = new Map<string, string>();
  for (const anchor of all(root, 'a[href]')) {
    if (anchor.closest('.ltx_bibliography, nav, header, footer, .ltx_page_navbar, .ar5iv-footer')) continue;
    const href = anchor.getAttribute('href')?.trim() ?? '';
    if (!/^https?:\/\//i.test(href) || found.has(href)) continue;
    const paragraph = (anchor.closest('p, li, td, .ltx_para, figcaption') ?? anchor) as Element;
    found.set(href, contextAround(collapse(textOf(paragraph)), collapse(textOf(anchor))));
  }
  return [...found].map(([url, context]) => ({ url, context }));
}

/** At most LINK_CONTEXT_CHARS of `text`, centred on where the link's own text is. */
function contextAround(text: string, anchorText: string): string {
  if (text.length <= LINK_CONTEXT_CHARS) return text;
  const at = Math.max(0, text.indexOf(anchorText));
  const start = Math.max(0, Math.min(at - LINK_CONTEXT_CHARS / 2, text.length - LINK_CONTEXT_CHARS));
  return text.slice(start, start + LINK_CONTEXT_CHARS);
}

/** Inline maths as readable text ("64×8", "7B"); anything still TeX after the common commands becomes "[formula]". */
function mathText(math: Element): string {
  const tex = (math.getAttribute('alttext') ?? '')
    .replace(/\\(?:text|mathrm|mathbf|textbf|mathit|textit|rm|bf|it|operatorname)\s*\{([^{}]*)\}/g, '$1')
    .replace(/\\times/g, '×')
    .replace(/\\sim/g, '~')
    .replace(/\\approx/g, '≈')
    .replace(/\\pm/g, '±')
    .replace(/\\leq?/g, '≤')
    .replace(/\\geq?/g, '≥')
    .replace(/\\([%$&#_])/g, '$1')
    .replace(/\\[,;:! ]/g, ' ')
    .replace(/\^\{?\\circ\}?/g, '°')
    .replace(/[{}]/g, '')
    .trim();
  if (!tex) return ' ';
  return /[\\^_]/.test(tex) ? ' [formula] ' : ` ${tex} `;
}

/** The element's text with one line per block (paragraph, list item, subsection title). */
function lines(element: Element): string {
  const out: string[] = [];
  walk(element, out);
  return (
    out
      .join('')
      .split('\n')
      .map((line) => collapse(line))
      .filter(Boolean)
      // A heading or a list item ends its sentence even without a full stop, or it runs into the next line's.
      .map((line) => (/[.!?:;…]["'”’)]*$/.test(line) ? line : `${line}.`))
      .join('\n')
  );
}

function walk(node: Element, out: string[]): void {
  for (const child of Array.from(node.childNodes) as Element[]) {
    // The page's own line breaks are spaces; only blocks make lines.
    if (child.nodeType === 3) out.push((child.textContent ?? '').replace(/\s+/g, ' '));
    else if (child.nodeType === 1) {
      const block = BLOCKS.has(child.tagName);
      if (block) out.push('\n');
      walk(child, out);
      if (block) out.push('\n');
    }
  }
}

function textOf(element: Element | null): string {
  if (!element) return '';
  const out: string[] = [];
  walk(element, out);
  return out.join('').replace(/\n/g, ' ');
}

function all(element: Element, selector: string): Element[] {
  return Array.from(element.querySelectorAll(selector)) as Element[];
}
