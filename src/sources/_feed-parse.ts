// Bytes of a feed → RawFeed. feedsmith first; when it refuses the document, the tolerant salvage reader; when
// neither finds a feed, a FeedFormatError that says what the bytes looked like.
import { type AnyFeed, parseAtomFeed, parseFeed, parseRdfFeed, parseRssFeed } from 'feedsmith';
import { errorMessage } from '../core/errors.js';
import { collapse } from '../core/text.js';
import { decodeFeedBytes } from './_decode.js';
import { fromFeedsmith, type RawFeed } from './_feed-entries.js';
import { rootXmlBase, salvageFeed } from './_feed-salvage.js';

export class FeedFormatError extends Error {
  override name = 'FeedFormatError';
}

export interface ParsedFeed {
  feed: RawFeed;
  encoding: string;
  warnings: string[];
  /** Entries the document itself lists when the parser kept none (a JSON Feed of junk items), else undefined. */
  declaredEntries?: number;
}

export function parseFeedBytes(bytes: Uint8Array, contentType?: string | null): ParsedFeed {
  const decoded = decodeFeedBytes(bytes, contentType);
  const warnings: string[] = [];
  if (decoded.via === 'sniffed' || decoded.via === 'fallback') {
    warnings.push(`no usable encoding declared; read as ${decoded.encoding}`);
  }
  const text = decoded.text.replace(/^\uFEFF/, '');
  let failure: unknown;
  try {
    const known = parseKnownFormat(text);
    const feed = fromFeedsmith(known);
    feed.base ??= rootXmlBase(text);
    const declared = known.format === 'json' && !feed.entries.length ? jsonItemCount(text) : 0;
    return { feed, encoding: decoded.encoding, warnings, ...(declared ? { declaredEntries: declared } : {}) };
  } catch (error) {
    failure = error;
  }
  const salvaged = salvageFeed(text);
  if (salvaged && salvaged.entries.length > 0) {
    warnings.push(
      `not a well-formed feed (${reason(failure)}); read ${salvaged.entries.length} entries with the tolerant reader`,
    );
    return { feed: salvaged, encoding: decoded.encoding, warnings };
  }
  throw new FeedFormatError(`not a feed (${describe(text, failure)}); check the URL`, { cause: failure });
}

// feedsmith's own detection scans the whole document for each format in turn (a 1 MB Atom feed is searched for
// "<rss" first); the root element, near the top, already says which parser to use.
const ROOT_ELEMENT = /<(?:[\w-]+:)?(rss|feed|RDF)[\s>]/;

function parseKnownFormat(text: string): AnyFeed {
  const root = ROOT_ELEMENT.exec(text.slice(0, 4096).replace(/<!--[\s\S]*?-->/g, ''))?.[1];
  try {
    if (root === 'feed') return { format: 'atom', feed: parseAtomFeed(text) } as AnyFeed;
    if (root === 'rss') return { format: 'rss', feed: parseRssFeed(text) } as AnyFeed;
    if (root === 'RDF') return { format: 'rdf', feed: parseRdfFeed(text) } as AnyFeed;
  } catch {
    // Not what its root said: let feedsmith's detection decide (and report).
  }
  return parseFeed(text);
}

function jsonItemCount(text: string): number {
  try {
    const items = (JSON.parse(text) as { items?: unknown }).items;
    return Array.isArray(items) ? items.length : 0;
  } catch {
    return 0;
  }
}

function reason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${errorMessage(error)}${cause}`;
}

function describe(text: string, failure: unknown): string {
  const trimmed = text.replace(/<!--[\s\S]*?-->/g, '').trim();
  if (!trimmed) return 'the document is empty';
  const html = /<html\b|<!doctype html|<head\b|<body\b/i.test(trimmed.slice(0, 2000));
  if (html) {
    const title = collapse(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1] ?? '').slice(0, 80);
    return `got an HTML page${title ? ` "${title}"` : ''}, not RSS/Atom/JSON Feed`;
  }
  if (/^[[{]/.test(trimmed)) return 'JSON, but not a JSON Feed';
  if (/^</.test(trimmed)) return `XML that is not RSS, Atom or RDF, or is broken: ${reason(failure)}`;
  return `starts with "${collapse(trimmed.slice(0, 40))}"`;
}
