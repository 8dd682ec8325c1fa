// The one view of an item (and of an edition) every channel renders: page, archive, email, Markdown, feeds, search.
// Decisions live here once — which links are safe, which image exists, how authors are cut, what the footer says —
// and the templates only lay the view out, escaping as they go.

import { itemAnchors } from '../core/anchors.js';
import { formatLongDate } from '../core/dates.js';
import { readerUrl } from '../core/ids.js';
import { sourceName } from '../core/source-names.js';
import { type Edition, type EditionItem, LEVELS, type TakeawaySource } from '../core/types.js';
import { safeUrl } from '../core/urls.js';
import { authorLine, MAX_AUTHORS, plural } from './_html.js';
import type { ImageMap } from './item-images.js';

export interface ItemImageView {
  /** Where the channel loads it from: page-relative, or absolute under the site's base URL. */
  src: string;
  /** Site-relative path of the published copy. */
  path: string;
  width: number | null;
  height: number | null;
  alt: string;
}

export interface ItemView {
  /** 1-based position in the edition. */
  number: number;
  /** Stable anchor id, unique within the edition. */
  anchor: string;
  title: string;
  /** The item's link when it is http(s), else null (the title is shown unlinked). */
  url: string | null;
  level: string;
  /** CSS class suffix: the level in lower case, or "unknown". */
  levelClass: string;
  authors: string[];
  /** "A, B and 12 more", cut at the options' maxAuthors; "" without authors. */
  authorLine: string;
  summary: string;
  takeaways: string[];
  /** The primary source's name ("Simon Willison"), not its config id. */
  source: string;
  /** "3 citations" when known, else null. */
  citations: string | null;
  arxiv: { id: string; url: string } | null;
  /** The published copy of the item's image, or null: then no image element at all. */
  image: ItemImageView | null;
  /** "#anchor", or the absolute page URL with it when known. */
  permalink: string;
  publishedAt: string;
  /** One per takeaway: the part of the paper it comes from ("§4", linked to that section), or null. */
  takeawaySources: (SectionLink | null)[];
  /** What a practitioner can use ("Code", "Apache-2.0", "8×H100"), each linked when it has a link; [] for none. */
  facts: { label: string; url: string | null }[];
  /** "read in full" / "from the abstract" for papers of editions that recorded it; null otherwise. */
  readNote: string | null;
  /** The reading said in reader words (a tooltip): never the build's operator reason; null when not recorded. */
  readWhy: string | null;
}

export interface SectionLink {
  label: string;
  url: string;
  /** The supporting words, for a tooltip. */
  quote: string;
}

export interface ItemViewOptions {
  /** Images published with the site; an item whose image is not in it shows none. */
  images?: ImageMap;
  /** Prefix for image paths: "../" on an edition page, the site's absolute URL in feeds and email; null: no images. */
  imageRoot?: string | null;
  /** Absolute URL of the edition page, for permalinks that leave the page. */
  pageUrl?: string | null;
  maxAuthors?: number;
  /** Counted links (analytics): the item's link through the service's /r/ redirect, by item key, in place of its own. */
  countedLink?: ((itemKey: string) => string) | undefined;
}

export interface EditionView {
  date: string;
  longDate: string;
  name: string;
  title: string;
  intro: string;
  /** "12 papers" */
  count: string;
  items: ItemView[];
}

/**
 * Source text as plain text: control characters and bidirectional overrides (which can hide or reorder what a reader
 * sees) become spaces, and runs of white space one space. Escaping is the templates' job, not this one's.
 */
export function plainText(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function toEditionView(edition: Edition, options: ItemViewOptions = {}): EditionView {
  const anchors = itemAnchors(edition.items);
  return {
    date: edition.date,
    longDate: formatLongDate(edition.date),
    name: plainText(edition.name),
    title: plainText(edition.title),
    intro: plainText(edition.intro),
    count: plural(edition.items.length, 'paper'),
    items: edition.items.map((item, index) =>
      toItemView(item, { number: index + 1, anchor: anchors[index] ?? `item-${index + 1}` }, options),
    ),
  };
}

export function toItemView(
  item: EditionItem,
  position: { number: number; anchor: string },
  options: ItemViewOptions = {},
): ItemView {
  const title = plainText(item.title);
  const authors = item.authors.map(plainText).filter(Boolean);
  const pageUrl = safeUrl(options.pageUrl);
  return {
    number: position.number,
    anchor: position.anchor,
    title,
    url: countedUrl(safeUrl(readerUrl(item.url, item.arxivId)), item.key, options),
    level: plainText(item.level),
    levelClass: (LEVELS as readonly string[]).includes(item.level) ? item.level.toLowerCase() : 'unknown',
    authors,
    authorLine: authorLine(authors, options.maxAuthors ?? MAX_AUTHORS),
    summary: plainText(item.summary),
    takeaways: item.takeaways.map(plainText),
    source: plainText(item.sourceName ?? sourceName(item.source)),
    citations:
      item.citations === null || item.citations === undefined ? null : plural(item.citations, 'citation'),
    arxiv: arxivLink(item.arxivId),
    image: imageView(item, title, options),
    permalink: pageUrl ? `${pageUrl}#${position.anchor}` : `#${position.anchor}`,
    publishedAt: item.publishedAt,
    takeawaySources: item.takeaways.map((_, index) => sectionLink(item.support?.[index])),
    facts: (item.facts ?? []).map((fact) => ({ label: plainText(fact.label), url: safeUrl(fact.url) })),
    readNote: readNote(item),
    readWhy: readerReadingNote(item),
  };
}

function sectionLink(source: TakeawaySource | null | undefined): SectionLink | null {
  const url = safeUrl(source?.url);
  if (!source || !url) return null;
  return { label: plainText(source.label), url, quote: plainText(source.quote) };
}

/**
 * What a reader is told of the reading. The build's reason (offline, no HTML rendering, a flag) is the operator's:
 * it stays in the build report and on the desk, never on a page or in a mail.
 */
function readerReadingNote(item: EditionItem): string | null {
  if (item.readFrom === 'full-text') return 'Summarised from the full paper.';
  if (item.readFrom === 'abstract') return 'Summarised from the abstract; the full paper was not read.';
  return null;
}

/** Says which papers were read in full. */
function readNote(item: EditionItem): string | null {
  if (item.readFrom === 'full-text') return 'read in full';
  if (item.readFrom === 'abstract') return 'from the abstract';
  return null;
}

function arxivLink(arxivId: string | null): ItemView['arxiv'] {
  if (!arxivId) return null;
  const id = plainText(arxivId);
  const path = id.split('/').map(encodeURIComponent).join('/');
  return { id, url: `https://arxiv.org/abs/${path}` };
}

function imageView(item: EditionItem, alt: string, options: ItemViewOptions): ItemImageView | null {
  if (!item.image || options.imageRoot === null || options.imageRoot === undefined) return null;
  const local = options.images?.get(item.image);
  if (!local) return null;
  return {
    src: `${options.imageRoot}${local.path}`,
    path: local.path,
    width: local.width,
    height: local.height,
    alt,
  };
}

/** The first item image of an edition as an absolute URL (Open Graph, JSON Feed), or null. */
export function leadImage(
  edition: Edition,
  images: ImageMap | undefined,
  home: string | null,
): string | null {
  if (!home || !images) return null;
  for (const item of edition.items) {
    const local = item.image ? images.get(item.image) : undefined;
    if (local) return `${home}${local.path}`;
  }
  return null;
}

/** The counted link where the item has a link of its own to count; an item without one stays without. */
function countedUrl(url: string | null, key: string, options: ItemViewOptions): string | null {
  return url && options.countedLink ? options.countedLink(key) : url;
}
