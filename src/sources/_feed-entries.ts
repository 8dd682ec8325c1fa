// feedsmith's four formats → one RawEntry shape, still unresolved and unvalidated (see _feed-items.ts).
import type { AnyFeed, AtomFeed, JsonFeed, MediaNs, RdfFeed, RssFeed } from 'feedsmith';
import { isHttpUrl } from '../core/urls.js';

export interface RawEntry {
  title: string;
  /** False only where the format says the title is plain text (Atom type="text", JSON Feed). */
  titleIsHtml: boolean;
  link: string | null;
  /** xml:base of the entry, unresolved. */
  base: string | null;
  /** Best body: full content first, then summary/description. HTML unless `htmlIsText`. */
  html: string;
  htmlIsText?: boolean;
  /** Raw date strings, most relevant first (published before updated). */
  dates: string[];
  authors: string[];
  images: string[];
  id: string | null;
}

export interface RawFeed {
  format: string;
  title: string;
  /** The feed's home link and xml:base, unresolved. */
  link: string | null;
  base: string | null;
  /** Channel-level date (lastBuildDate/pubDate/updated), raw. */
  date: string | null;
  entries: RawEntry[];
}

const present = (values: (string | null | undefined)[]): string[] =>
  values.filter((value): value is string => typeof value === 'string' && value.trim() !== '');

const orElse = (values: string[], fallback: string[]): string[] => (values.length ? values : fallback);

export function fromFeedsmith(parsed: AnyFeed): RawFeed {
  switch (parsed.format) {
    case 'rss':
      return fromRss(parsed.feed);
    case 'atom':
      return fromAtom(parsed.feed);
    case 'rdf':
      return fromRdf(parsed.feed);
    case 'json':
      return fromJson(parsed.feed);
  }
}

function mediaImages(media: MediaNs.ItemOrFeed | undefined): string[] {
  if (!media) return [];
  const contents = [
    ...(media.contents ?? []),
    ...(media.groups ?? []).flatMap((group) => group.contents ?? []),
  ];
  return present([
    ...(media.thumbnails ?? []).map((thumbnail) => thumbnail.url),
    ...contents.flatMap((content) => [
      ...(content.thumbnails ?? []).map((thumbnail) => thumbnail.url),
      content.medium === 'image' || content.type?.startsWith('image/') ? content.url : undefined,
    ]),
  ]);
}

function fromRss(feed: RssFeed.Feed<string>): RawFeed {
  const atomLink = feed.atom?.links?.find((link) => link.rel === 'alternate')?.href;
  return {
    format: 'rss',
    title: feed.title ?? '',
    link: feed.link ?? atomLink ?? null,
    base: feed.xml?.base ?? null,
    date: feed.lastBuildDate ?? feed.pubDate ?? feed.dc?.dates?.[0] ?? null,
    entries: (feed.items ?? []).map((item) => {
      const guid = item.guid?.isPermaLink === false ? null : (item.guid?.value ?? null);
      return {
        title: item.title ?? item.dc?.titles?.[0] ?? '',
        titleIsHtml: true,
        link:
          item.link ?? item.atom?.links?.find((link) => !link.rel || link.rel === 'alternate')?.href ?? guid,
        base: item.xml?.base ?? null,
        html: item.content?.encoded ?? item.description ?? item.dc?.descriptions?.[0] ?? '',
        dates: present([item.pubDate, ...(item.dc?.dates ?? []), item.atom?.published, item.atom?.updated]),
        authors: present([
          ...(item.authors ?? []).map((author) => author.name ?? author.email),
          ...(item.dc?.creators ?? []),
        ]),
        images: present([
          ...mediaImages(item.media),
          ...(item.enclosures ?? []).filter((e) => e.type?.startsWith('image/')).map((e) => e.url),
          item.itunes?.image,
        ]),
        id: item.guid?.value ?? null,
      };
    }),
  };
}

function atomText(text: AtomFeed.Text | undefined): { value: string; isHtml: boolean } {
  const type = text?.type?.toLowerCase() ?? 'text';
  return { value: text?.value ?? '', isHtml: type !== 'text' && type !== '' && type !== 'text/plain' };
}

function fromAtom(feed: AtomFeed.Feed<string>): RawFeed {
  // Atom lets authors sit on the feed only (simonwillison.net does): entries inherit them.
  const feedAuthors = present((feed.authors ?? []).map((author) => author.name));
  const alternate = (links: AtomFeed.Link<string>[] | undefined) =>
    links?.find((link) => (!link.rel || link.rel === 'alternate') && link.href)?.href ?? null;
  return {
    format: 'atom',
    title: feed.title?.value ?? '',
    link: alternate(feed.links),
    base: feed.xml?.base ?? null,
    date: feed.updated ?? null,
    entries: (feed.entries ?? []).map((entry) => {
      const title = atomText(entry.title);
      const content = entry.content?.value ? entry.content : entry.summary;
      const contentType = content?.type?.toLowerCase() ?? 'text';
      return {
        title: title.value,
        titleIsHtml: title.isHtml,
        link: alternate(entry.links) ?? (isHttpUrl(entry.id) ? (entry.id ?? null) : null),
        base: entry.xml?.base ?? null,
        html: content?.value ?? '',
        htmlIsText: contentType === 'text' || contentType === 'text/plain',
        dates: present([entry.published, entry.updated, ...(entry.dc?.dates ?? [])]),
        authors: orElse(
          present([...(entry.authors ?? []).map((author) => author.name), ...(entry.dc?.creators ?? [])]),
          feedAuthors,
        ),
        images: present([
          ...mediaImages(entry.media),
          ...(entry.links ?? [])
            .filter((l) => l.rel === 'enclosure' && l.type?.startsWith('image/'))
            .map((l) => l.href),
        ]),
        id: entry.id ?? null,
      };
    }),
  };
}

function fromRdf(feed: RdfFeed.Feed<string>): RawFeed {
  return {
    format: 'rdf',
    title: feed.title ?? '',
    link: feed.link ?? null,
    base: feed.xml?.base ?? null,
    date: feed.dc?.dates?.[0] ?? null,
    entries: (feed.items ?? []).map((item) => ({
      title: item.title ?? item.dc?.titles?.[0] ?? '',
      titleIsHtml: true,
      link: item.link ?? item.rdf?.about ?? null,
      base: item.xml?.base ?? null,
      html: item.content?.encoded ?? item.description ?? item.dc?.descriptions?.[0] ?? '',
      dates: present([...(item.dc?.dates ?? []), ...(item.dcterms?.issued ?? [])]),
      authors: present(item.dc?.creators ?? []),
      images: mediaImages(item.media),
      id: item.rdf?.about ?? null,
    })),
  };
}

function fromJson(feed: JsonFeed.Feed<string>): RawFeed {
  return {
    format: 'json',
    title: feed.title ?? '',
    link: feed.home_page_url ?? null,
    base: feed.feed_url ?? null,
    date: null,
    entries: (feed.items ?? []).map((item) => ({
      title: item.title ?? '',
      titleIsHtml: false,
      link: item.url ?? item.external_url ?? null,
      base: null,
      html: item.content_html ?? item.content_text ?? item.summary ?? '',
      htmlIsText: !item.content_html && !!(item.content_text ?? item.summary),
      dates: present([item.date_published, item.date_modified]),
      authors: present((item.authors ?? []).map((author) => author.name)),
      images: present([item.image, item.banner_image]),
      id: item.id ?? null,
    })),
  };
}
