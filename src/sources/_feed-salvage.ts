// A tolerant reader for feeds the XML parser rejects (truncated captures, doubled declarations, prefixed
// elements, unclosed tags): it finds <item>/<entry> blocks and reads the few fields we need from each.
import { decodeXML } from 'entities';
import type { RawEntry, RawFeed } from './_feed-entries.js';
import { attribute } from './_html-text.js';

const ROOT = /<(?:[\w-]+:)?(rss|feed|RDF)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/i;
const ENTRY_START = /<(?:[\w-]+:)?(item|entry)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;

export function salvageFeed(text: string): RawFeed | null {
  const root = ROOT.exec(text);
  if (!root) return null;
  const starts = [...text.matchAll(ENTRY_START)];
  const head = text.slice(0, starts[0]?.index ?? text.length);
  const entries = starts.map((start, index) => {
    const from = (start.index ?? 0) + start[0].length;
    const to = starts[index + 1]?.index ?? text.length;
    const closing = new RegExp(`</(?:[\\w-]+:)?${start[1]}\\s*>`, 'i').exec(text.slice(from, to));
    return readEntry(text.slice(from, closing ? from + closing.index : to), start[0]);
  });
  return {
    format:
      (root[1] ?? '').toLowerCase() === 'feed'
        ? 'atom'
        : (root[1] ?? '').toLowerCase() === 'rdf'
          ? 'rdf'
          : 'rss',
    title: field(head, ['title']) ?? '',
    link: link(head),
    base: attribute(root[2] ?? '', 'xml:base'),
    date: field(head, ['lastBuildDate', 'pubDate', 'updated', 'date']),
    entries,
  };
}

/** xml:base on the root element (feedsmith reads it on <feed> and <channel>, not on <rss>). */
export function rootXmlBase(text: string): string | null {
  const root = ROOT.exec(text.slice(0, 4096));
  return root ? attribute(root[2] ?? '', 'xml:base') : null;
}

function readEntry(block: string, startTag: string): RawEntry {
  const creators = fields(block, ['creator', 'author']).map((author) => field(author, ['name']) ?? author);
  return {
    title: field(block, ['title']) ?? '',
    titleIsHtml: true,
    link: link(block) ?? field(block, ['guid', 'id']),
    base: attribute(startTag, 'xml:base'),
    html: field(block, ['encoded', 'content', 'description', 'summary']) ?? '',
    dates: fields(block, ['pubDate', 'published', 'date', 'issued', 'updated', 'modified']),
    authors: creators,
    images: [],
    id: field(block, ['guid', 'id']),
  };
}

/** Text of the first element with one of `names` (any prefix), CDATA unwrapped and entities decoded. */
function field(block: string, names: string[]): string | null {
  return fields(block, names)[0] ?? null;
}

function fields(block: string, names: string[]): string[] {
  const values: string[] = [];
  for (const name of names) {
    const pattern = new RegExp(`<(?:[\\w-]+:)?${name}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${name}\\s*>`, 'gi');
    for (const match of block.matchAll(pattern)) {
      const value = textOf(match[1] ?? '');
      if (value) values.push(value);
    }
  }
  return values;
}

function textOf(raw: string): string {
  // CDATA is kept verbatim; an unterminated one is dropped with whatever follows it.
  const parts = raw.replace(/<!\[CDATA\[(?![\s\S]*\]\]>)[\s\S]*$/, '').split(/<!\[CDATA\[([\s\S]*?)\]\]>/);
  return parts
    .map((part, index) => (index % 2 === 1 ? part : decodeXML(part)))
    .join('')
    .trim();
}

function link(block: string): string | null {
  for (const match of block.matchAll(/<(?:[\w-]+:)?link\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi)) {
    const attributes = match[1] ?? '';
    const href = attribute(attributes, 'href');
    const rel = attribute(attributes, 'rel');
    if (href && (!rel || rel === 'alternate')) return href;
  }
  return field(block, ['link']);
}
