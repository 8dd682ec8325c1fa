// Where the paper reader's one pass puts text: every piece is appended once, to a fixed number of sinks, so reading a
// page is linear in its size whatever its shape (4,000 links in one paragraph, 50,000 sections, 100,000 nested divs).
import { collapse, collapseSpaces } from '../core/text.js';
import type { PaperLink } from '../core/types.js';

/** Text read as one string (a title, a caption), kept up to `limit` characters. */
export class CappedText {
  private readonly pieces: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  add(piece: string): void {
    if (this.length >= this.limit) return;
    this.pieces.push(piece);
    this.length += piece.length;
  }

  text(): string {
    return collapse(this.pieces.join('').slice(0, this.limit));
  }
}

/** Text with one line per block (paragraph, list item, subsection title), cut at `limit` characters. */
export class LineText {
  private readonly lines: string[] = [];
  private length = 0;
  private line: string[] = [];
  private lineLength = 0;

  constructor(private readonly limit: number) {}

  add(piece: string): void {
    // A line longer than the whole limit is cut anyway: what is past it is never kept.
    if (this.length > this.limit || this.lineLength > this.limit) return;
    this.line.push(piece);
    this.lineLength += piece.length;
  }

  /** A block starts or ends here. */
  break(): void {
    if (this.lineLength === 0) return;
    const line = collapse(collapseSpaces(this.line.join('')));
    this.line = [];
    this.lineLength = 0;
    if (!line || this.length > this.limit) return;
    // A heading or a list item ends its sentence even without a full stop, or it runs into the next line's.
    const ended = endsSentence(line) ? line : `${line}.`;
    this.lines.push(ended);
    this.length += ended.length + 1;
  }

  text(): string {
    this.break();
    return this.lines.join('\n').slice(0, this.limit);
  }
}

const CLOSERS = new Set(['"', "'", '”', '’', ')']);
const STOPS = new Set(['.', '!', '?', ':', ';', '…']);

/** Whether a line ends with a stop, maybe followed by closing quotes or brackets (a scan from the end, no regex). */
function endsSentence(line: string): boolean {
  let at = line.length - 1;
  while (at >= 0 && CLOSERS.has(line[at]!)) at -= 1;
  return at >= 0 && STOPS.has(line[at]!);
}

// Anything collapseSpaces would change: two spaces, other whitespace, control and zero-width characters.
const NEEDS_COLLAPSE =
  /[\u0000-\u001f\u007f\u0085\u00a0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]| {2}/;

/** At most this many characters of a link's paragraph, centred on the link. */
export const LINK_CONTEXT_CHARS = 400;

interface Span {
  start: number;
  end: number;
}

interface PendingLink {
  url: string;
  container: Span;
  anchor: Span;
}

/**
 * Link contexts in one pass: the collapsed text of the outermost open container (paragraph, list item, cell,
 * `.ltx_para`, caption) is kept once, each container and anchor as offsets into it, and each link's context is cut
 * from it when that container closes — never by re-reading a paragraph per link.
 */
export class LinkContexts {
  private readonly found = new Map<string, string>();
  private pieces: string[] = [];
  private length = 0;
  private spaceBefore = true;
  private readonly containers: Span[] = [];
  private readonly anchors: Span[] = [];
  private pending: PendingLink[] = [];

  has(url: string): boolean {
    return this.found.has(url);
  }

  add(piece: string): void {
    if (this.containers.length === 0) return;
    // Most pieces are plain words and single spaces: collapsed only when they might need it.
    let text = NEEDS_COLLAPSE.test(piece) ? collapseSpaces(piece) : piece;
    if (this.spaceBefore && text.startsWith(' ')) text = text.slice(1);
    if (!text) return;
    this.pieces.push(text);
    this.length += text.length;
    this.spaceBefore = text.endsWith(' ');
  }

  openContainer(): void {
    this.containers.push({ start: this.length, end: -1 });
  }

  closeContainer(): void {
    const container = this.containers.pop();
    if (container) container.end = this.length;
    if (this.containers.length === 0) this.settle();
  }

  /** A new link's anchor opens (the caller checked `has`); without a container it is its own. */
  openAnchor(url: string): boolean {
    const own = this.containers.length === 0;
    if (own) this.openContainer();
    const anchor = { start: this.length, end: -1 };
    this.anchors.push(anchor);
    this.pending.push({ url, container: this.containers.at(-1)!, anchor });
    // Reserved now, so the links keep the order in which the page first names them.
    this.found.set(url, '');
    return own;
  }

  closeAnchor(): void {
    const anchor = this.anchors.pop();
    if (anchor) anchor.end = this.length;
  }

  links(): PaperLink[] {
    while (this.containers.length > 0) this.closeContainer();
    return [...this.found].map(([url, context]) => ({ url, context }));
  }

  private settle(): void {
    const text = this.pieces.join('');
    for (const link of this.pending) this.found.set(link.url, contextOf(text, link));
    this.pieces = [];
    this.length = 0;
    this.spaceBefore = true;
    this.pending = [];
  }
}

function trimmed(text: string, span: Span): Span {
  let { start, end } = span;
  if (end < 0) end = text.length;
  while (start < end && text[start] === ' ') start += 1;
  while (end > start && text[end - 1] === ' ') end -= 1;
  return { start, end };
}

/** At most LINK_CONTEXT_CHARS of the link's container, centred on where the link's own text is. */
function contextOf(text: string, link: PendingLink): string {
  const container = trimmed(text, link.container);
  const size = container.end - container.start;
  if (size <= LINK_CONTEXT_CHARS) return text.slice(container.start, container.end);
  const at = Math.max(0, trimmed(text, link.anchor).start - container.start);
  const start = Math.max(0, Math.min(at - LINK_CONTEXT_CHARS / 2, size - LINK_CONTEXT_CHARS));
  return text.slice(container.start + start, container.start + start + LINK_CONTEXT_CHARS);
}
