// One pass over a paper page's HTML (htmlparser2's tokenizer, no DOM): a stack of what each open element started,
// and every text piece handed once to the few sinks that want it (title, abstract, the open section, its heading,
// tag or caption, the link contexts, the watermark). Nothing re-reads an element's text, nothing recurses, no regex
// runs over the page's text: the work is linear in the page's size, whatever its shape.
import { Parser } from 'htmlparser2';
import type { PaperLink, PaperSection } from '../core/types.js';
import { CappedText, LineText, LinkContexts } from './_text-sinks.js';

/** Appendices are kept, in order, while their text fits this many characters in all. */
export const APPENDIX_BUDGET_CHARS = 20_000;
/** One section's text is cut at this many characters (a results section of tables can run to 40 KB). */
const SECTION_TEXT_LIMIT = 40_000;
/**
 * Elements open at once (LaTeXML's pages nest about 25 deep). htmlparser2 keeps its open elements in an array it
 * shifts at the front, so each tag costs as much as the depth: capped, a page costs at most this much per tag.
 */
export const MAX_DEPTH = 256;
/** A title, a section number or a watermark longer than this is not one: the rest is not kept. */
const SHORT_TEXT_LIMIT = 2_000;

// Page chrome and what is not prose (references, display equations, footnotes): its text is in no section.
const CHROME_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'nav',
  'header',
  'footer',
  'dialog',
  'button',
  'form',
]);
const CHROME_CLASSES = new Set([
  'ltx_page_navbar',
  'ltx_page_header',
  'ltx_page_footer',
  'ltx_TOC',
  'ar5iv-footer',
  'ltx_authors',
  'ltx_dates',
  'ltx_bibliography',
  'ltx_equation',
  'ltx_equationgroup',
  'ltx_note',
  'ltx_watermark',
]);
const WATERMARK_ID = 'watermark-tr';
// Links there are navigation or references, not what the paper presents.
const NOT_LINK_TAGS = new Set(['nav', 'header', 'footer']);
const NOT_LINK_CLASSES = new Set(['ltx_bibliography', 'ltx_page_navbar', 'ar5iv-footer']);
const CONTAINER_TAGS = new Set(['p', 'li', 'td', 'figcaption']);
const BLOCKS = new Set(
  'p div li ul ol dl dt dd h1 h2 h3 h4 h5 h6 table tr section article blockquote pre figure figcaption br'.split(
    ' ',
  ),
);

// What an open element started, undone when it closes.
const CHROME = 1;
const NOT_LINK = 2;
const MATH = 4;
const INERT = 8;
const CONTAINER = 16;
const ANCHOR = 32;
const TITLE = 64;
const WATERMARK = 128;
const ABSTRACT = 256;
const ABSTRACT_TITLE = 512;
const SECTION = 1024;
const HEADING = 2048;
const TAG = 4096;
const FIGURE = 8192;
const CAPTION = 16384;
const ROOT = 32768;

interface SectionDraft {
  id: string | null;
  appendix: boolean;
  heading: CappedText | null;
  tag: CappedText | null;
  lines: LineText;
  captions: string[];
  caption: CappedText | null;
}

export interface PaperRead {
  title: string;
  watermark: string;
  abstract: string | null;
  sections: PaperSection[];
  links: PaperLink[];
}

class TooDeep extends Error {}

const NO_CLASSES: string[] = [];

function anyIn(classes: string[], set: Set<string>): boolean {
  for (const name of classes) if (set.has(name)) return true;
  return false;
}

/** What a paper page holds, or null when it nests elements deeper than MAX_DEPTH (no paper does). */
export function readPaperPage(html: string, mathText: (alttext: string) => string): PaperRead | null {
  const reader = new PaperReader(mathText);
  const parser = new Parser(
    {
      onopentag: (name, attributes) => reader.open(name, attributes),
      ontext: (text) => reader.text(text),
      onclosetag: (name) => reader.close(name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error instanceof TooDeep) return null;
    throw error;
  }
  return reader.result();
}

class PaperReader {
  private readonly stack: number[] = [];
  private chrome = 0;
  private notLink = 0;
  private math = 0;
  private figures = 0;
  private openFlags = 0;
  private readonly title = new CappedText(SHORT_TEXT_LIMIT);
  private titleSeen = false;
  private readonly watermark = new CappedText(SHORT_TEXT_LIMIT);
  private watermarkSeen = false;
  private abstract: LineText | null = null;
  private abstractTitleSeen = false;
  private section: SectionDraft | null = null;
  private readonly sections: PaperSection[] = [];
  private appendixChars = 0;
  // LaTeXML's `article.ltx_document` is the paper; links around it (arXiv's banner, licence, footer) are not its.
  private readonly rootLinks = new LinkContexts();
  private readonly pageLinks = new LinkContexts();
  private inRoot = 0;
  private rootSeen = false;

  constructor(private readonly mathText: (alttext: string) => string) {}

  open(name: string, attributes: Record<string, string>): void {
    if (this.stack.length >= MAX_DEPTH) throw new TooDeep();
    if (this.math > 0) {
      this.stack.push(INERT);
      return;
    }
    if (name === 'math') {
      // Inline maths as its readable text, in place; its MathML is not read.
      this.text(this.mathText(attributes.alttext ?? ''));
      this.math += 1;
      this.stack.push(MATH);
      return;
    }
    const classes = attributes.class ? attributes.class.split(/[\t\n\f\r ]+/) : NO_CLASSES;
    let flags = this.openPage(name, classes, attributes);
    if (this.chrome === 0) flags |= this.openPaper(name, classes, attributes);
    this.stack.push(flags);
    this.openFlags |= flags;
    if (BLOCKS.has(name)) this.break();
  }

  /** Chrome, links and the watermark: read whether or not the element is part of the paper's text. */
  private openPage(name: string, classes: string[], attributes: Record<string, string>): number {
    let flags = 0;
    if (CHROME_TAGS.has(name) || attributes.id === WATERMARK_ID || anyIn(classes, CHROME_CLASSES)) {
      flags |= CHROME;
      this.chrome += 1;
    }
    if (NOT_LINK_TAGS.has(name) || anyIn(classes, NOT_LINK_CLASSES)) {
      flags |= NOT_LINK;
      this.notLink += 1;
    }
    if (attributes.id === WATERMARK_ID && !this.watermarkSeen) {
      this.watermarkSeen = true;
      flags |= WATERMARK;
    }
    if (name === 'article' && classes.includes('ltx_document')) {
      this.inRoot += 1;
      this.rootSeen = true;
      flags |= ROOT;
    }
    if (CONTAINER_TAGS.has(name) || classes.includes('ltx_para')) {
      this.links.openContainer();
      flags |= CONTAINER;
    }
    const href = name === 'a' && this.notLink === 0 ? attributes.href?.trim() : undefined;
    if (href && /^https?:\/\//i.test(href) && !this.links.has(href)) {
      if (this.links.openAnchor(href)) flags |= CONTAINER;
      flags |= ANCHOR;
    }
    return flags;
  }

  /** The paper's own structure: title, abstract, sections with their headings and figures. */
  private openPaper(name: string, classes: string[], attributes: Record<string, string>): number {
    let flags = 0;
    const title = classes.includes('ltx_title');
    if (name === 'h1' && title && !this.titleSeen) {
      this.titleSeen = true;
      flags |= TITLE;
    }
    if (classes.includes('ltx_abstract') && !this.abstract) {
      this.abstract = new LineText(SECTION_TEXT_LIMIT);
      flags |= ABSTRACT;
    } else if (title && this.isOpen(ABSTRACT) && !this.abstractTitleSeen) {
      this.abstractTitleSeen = true;
      flags |= ABSTRACT_TITLE;
    }
    const section = this.section;
    if (!section) {
      const appendix = classes.includes('ltx_appendix');
      if (name === 'section' && (appendix || classes.includes('ltx_section'))) {
        this.section = {
          id: attributes.id || null,
          appendix,
          heading: null,
          tag: null,
          lines: new LineText(SECTION_TEXT_LIMIT),
          captions: [],
          caption: null,
        };
        flags |= SECTION;
      }
      return flags;
    }
    if (title && !section.heading) {
      section.heading = new CappedText(SHORT_TEXT_LIMIT);
      flags |= HEADING;
    } else if (classes.includes('ltx_tag') && this.isOpen(HEADING) && !section.tag) {
      section.tag = new CappedText(SHORT_TEXT_LIMIT);
      flags |= TAG;
    }
    if (name === 'figure') {
      if (this.figures === 0) section.caption = null;
      this.figures += 1;
      flags |= FIGURE;
    } else if (
      this.figures > 0 &&
      !section.caption &&
      (name === 'figcaption' || classes.includes('ltx_caption'))
    ) {
      // A figure's first caption, as the page orders them (a panel's own may come first).
      section.caption = new CappedText(SECTION_TEXT_LIMIT);
      flags |= CAPTION;
    }
    return flags;
  }

  /** The links of where the pass is (balanced nesting: the same at an element's close as at its open). */
  private get links(): LinkContexts {
    return this.inRoot > 0 ? this.rootLinks : this.pageLinks;
  }

  private isOpen(flag: number): boolean {
    return (this.openFlags & flag) !== 0;
  }

  text(piece: string): void {
    if (this.math > 0) return;
    this.rootLinks.add(piece);
    this.pageLinks.add(piece);
    if (this.isOpen(WATERMARK)) this.watermark.add(piece);
    if (this.chrome > 0) return;
    if (this.isOpen(TITLE)) this.title.add(piece);
    if (this.isOpen(ABSTRACT) && !this.isOpen(ABSTRACT_TITLE)) this.abstract?.add(piece);
    const section = this.section;
    if (!section) return;
    if (this.isOpen(TAG)) section.tag?.add(piece);
    else if (this.isOpen(HEADING)) section.heading?.add(piece);
    if (this.isOpen(CAPTION)) section.caption?.add(piece);
    if (!this.isOpen(HEADING) && this.figures === 0) section.lines.add(piece);
  }

  private break(): void {
    this.rootLinks.add(' ');
    this.pageLinks.add(' ');
    if (this.chrome > 0) return;
    if (this.isOpen(TITLE)) this.title.add(' ');
    if (this.isOpen(ABSTRACT) && !this.isOpen(ABSTRACT_TITLE)) this.abstract?.break();
    const section = this.section;
    if (!section) return;
    if (this.isOpen(HEADING)) section.heading?.add(' ');
    if (this.isOpen(CAPTION)) section.caption?.add(' ');
    if (!this.isOpen(HEADING) && this.figures === 0) section.lines.break();
  }

  close(name: string): void {
    const flags = this.stack.pop() ?? INERT;
    if (flags & (INERT | MATH)) {
      if (flags & MATH) this.math -= 1;
      return;
    }
    if (BLOCKS.has(name)) this.break();
    this.closeFlags(flags);
    this.openFlags &= ~flags;
  }

  private closeFlags(flags: number): void {
    const section = this.section;
    if (flags & CAPTION && section?.caption) {
      const caption = section.caption.text();
      if (caption) section.captions.push(caption);
    }
    if (flags & FIGURE) this.figures -= 1;
    if (flags & SECTION) this.closeSection();
    if (flags & ANCHOR) this.links.closeAnchor();
    if (flags & CONTAINER) this.links.closeContainer();
    if (flags & ROOT) this.inRoot -= 1;
    if (flags & NOT_LINK) this.notLink -= 1;
    if (flags & CHROME) this.chrome -= 1;
  }

  private closeSection(): void {
    const draft = this.section;
    this.section = null;
    this.figures = 0;
    const section = draft ? finishSection(draft) : null;
    if (!section) return;
    if (section.kind === 'appendix') {
      this.appendixChars += section.text.length;
      if (this.appendixChars > APPENDIX_BUDGET_CHARS) return;
    }
    this.sections.push(section);
  }

  result(): PaperRead {
    while (this.stack.length > 0) this.close('');
    return {
      title: this.title.text(),
      watermark: this.watermark.text(),
      abstract: this.abstract?.text() || null,
      sections: this.sections,
      links: (this.rootSeen ? this.rootLinks : this.pageLinks).links(),
    };
  }
}

function finishSection(draft: SectionDraft): PaperSection | null {
  if (!draft.id || !draft.heading) return null;
  const tag = draft.tag?.text() ?? '';
  // Anchored patterns on a short text: "Appendix A", "4.", "IV:".
  const number = tag.replace(/^Appendix\s+/i, '').replace(/[.:]$/, '') || null;
  const text = draft.lines.text();
  if (!text && draft.captions.length === 0) return null;
  const kind = draft.appendix ? 'appendix' : 'section';
  return { id: draft.id, number, title: draft.heading.text(), kind, text, captions: draft.captions };
}
