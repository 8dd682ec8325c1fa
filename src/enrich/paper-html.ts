// A paper's HTML rendering (arXiv's LaTeXML pages at arxiv.org/html, and ar5iv's) as sections of plain text.
// LaTeXML marks its structure: `section.ltx_section` with the anchor ids the page links to (S4, A1), `h2.ltx_title`
// holding a `.ltx_tag` number, `.ltx_abstract`, figures with `.ltx_caption`, `.ltx_bibliography`, `.ltx_appendix`,
// MathML `math` with its TeX in `alttext`. Kept: the title, the abstract, each numbered section's paragraphs and
// captions. Dropped: references, navigation and page chrome, display equations, footnote marks, and appendices past
// a budget. The page is untrusted: nothing here follows a link or runs a script, the result is plain text, and the
// page is read in one linear pass (_paper-reader.ts), so no shape of page can make reading it slow.
import type { PaperSection, PaperText } from '../core/types.js';
import { readPaperPage } from './_paper-reader.js';

export { APPENDIX_BUDGET_CHARS, MAX_DEPTH } from './_paper-reader.js';

export interface ParsePaperOptions {
  arxivId: string;
  /** The URL the page was read from (after redirects). */
  url: string;
}

/**
 * Sections of a LaTeXML page, or null when the page is not one (no abstract and no numbered section, or elements
 * nested deeper than MAX_DEPTH).
 */
export function parsePaperHtml(html: string, options: ParsePaperOptions): PaperText | null {
  const page = readPaperPage(html, mathText);
  if (!page) return null;
  const sections: PaperSection[] = page.abstract
    ? [
        {
          id: 'abstract',
          number: null,
          title: 'Abstract',
          kind: 'abstract',
          text: page.abstract,
          captions: [],
        },
      ]
    : [];
  sections.push(...page.sections);
  if (!sections.some((section) => section.kind === 'section')) return null;
  const url = withoutQuery(options.url);
  return {
    arxivId: options.arxivId,
    version: watermarkVersion(page.watermark) ?? urlVersion(url),
    url,
    title: page.title,
    sections,
    links: page.links,
  };
}

function withoutQuery(url: string): string {
  const cut = url.search(/[#?]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/** The version in the URL's last segment ("…/2310.06825v2"). */
function urlVersion(url: string): number | null {
  const stated = /v(\d+)\/?$/.exec(url)?.[1];
  return stated ? Number(stated) : null;
}

/**
 * The version arxiv.org/html's watermark states ("arXiv:2310.06825v1 [cs.CL] …"): in the word after an "arXiv:",
 * past its first character, the first "v" and digits that end the word or meet a non-word character. A scan, not
 * /arXiv:\S+?v(\d+)\b/, which tries every "arXiv:" against the rest of its word: quadratic on "arXiv:arXiv:…".
 */
export function watermarkVersion(watermark: string): number | null {
  let from = 0;
  for (;;) {
    const start = watermark.indexOf('arXiv:', from);
    if (start < 0) return null;
    const word = start + 'arXiv:'.length;
    let end = word;
    while (end < watermark.length && !isSpace(watermark.charCodeAt(end))) end += 1;
    for (let at = word + 1; at < end - 1; at += 1) {
      if (watermark[at] !== 'v' || !isDigit(watermark.charCodeAt(at + 1))) continue;
      let digits = at + 1;
      while (digits < end && isDigit(watermark.charCodeAt(digits))) digits += 1;
      if (digits === end || !isWordChar(watermark.charCodeAt(digits)))
        return Number(watermark.slice(at + 1, digits));
      at = digits - 1;
    }
    // A later "arXiv:" in the same word has no match either: its part of the word was just read.
    from = end;
  }
}

function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x1680 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordChar(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Inline maths longer than this is not a number or a unit: it becomes "[formula]" unread. */
const MATH_TEXT_LIMIT = 500;

/** Inline maths as readable text ("64×8", "7B"); anything still TeX after the common commands becomes "[formula]". */
export function mathText(alttext: string): string {
  if (alttext.length > MATH_TEXT_LIMIT) return ' [formula] ';
  const tex = alttext
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
