// The whole static site from the published editions: pages, archive, feeds, search, sitemap — same input, same bytes.

import { PublishError } from '../core/errors.js';
import type { FileSystem } from '../core/ports.js';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import { FAVICON_SVG, type WrittenForm } from './_layout.js';
import { renderArchiveHtml } from './archive-html.js';
import { renderEditionHtml } from './edition-html.js';
import { renderEditionJson } from './edition-json.js';
import { FEED_FILES, renderFeeds } from './feeds.js';
import { type FetchImagesOptions, fetchItemImages, type ImageMap } from './item-images.js';
import { renderEditionMarkdown } from './markdown.js';
import { renderSearchHtml, renderSearchIndex, SEARCH_FILES, SEARCH_SCRIPT } from './search-page.js';
import { renderNotFoundHtml, renderRobots, renderSitemap } from './site-files.js';
import { type SiteLook, siteLogo } from './site-policy.js';
import { DEFAULT_SITE_NAME, type SiteCountedLink, type SiteOptions } from './types.js';
import { assertEditionDate, type SiteFiles, summaryOf, writeFiles } from './write-site.js';

/** What the site shows and how: the input of the pure render (siteFiles), same input, same bytes. */
export interface PublishSiteInput {
  /** Every edition the site shows (the published ones), any order. */
  editions: Edition[];
  /** Absolute URL of the site: feeds, sitemap, canonical and Open Graph links need it. */
  baseUrl: string;
  siteName?: string;
  feedLimit?: number;
  /** Item images published with the site (fetchItemImages); without them no item shows an image. */
  images?: ImageMap;
  /**
   * config server.subscribeForm: true (or `{ clicks }`, saying how clicks are counted) writes the form into every
   * page, false leaves it out; unset leaves the slot `digest serve` fills when subscribing works (a base URL and
   * SMTP configured).
   */
  subscribeForm?: boolean | WrittenForm;
  /** The site's languages and the editions in each translated one. */
  languages?: SiteLanguages;
  /** publish.identity's accent colour and logo on every page, the logo as the feeds' image. */
  look?: SiteLook | undefined;
}

export interface SiteLanguages {
  /** Configured languages, the written one first (`<html lang>`, the subscribe form's choice). */
  configured: readonly string[];
  /** The published editions in each other language (translations laid over), by language: a section each. */
  translated?: ReadonlyMap<string, Edition[]> | undefined;
}

/** publishSite: the render input (its images fetched here, not passed) and where the files go. */
export interface PublishSiteOptions extends Omit<PublishSiteInput, 'images'> {
  fs: FileSystem;
  outDir: string;
  /**
   * Fetch every item image once through this guarded client and publish it under img/; without it the site has
   * no item images. Failures are warnings.
   */
  fetchImages?: FetchImagesOptions;
  /** Counted links (analytics.site): the edition pages' item links through /r/. */
  countedLink?: SiteCountedLink | undefined;
}

export interface PublishSiteResult {
  files: string[];
  bytes: number;
  /** Images that could not be published (the items show none). */
  warnings: string[];
  /** The published images, for the email of the same run. */
  images: ImageMap;
}

/** `countedLink` (analytics.site): the edition pages link their items through /r/; unset: their own links. */
export function siteFiles(input: PublishSiteInput, countedLink?: SiteCountedLink): SiteFiles {
  const home = absoluteUrl(input.baseUrl, '');
  if (!home)
    throw new PublishError(
      `The site needs an absolute http(s) base URL (got "${input.baseUrl}"): pass --base-url.`,
    );
  const newestFirst = (list: Edition[]) => [...list].sort((a, b) => compareText(b.date, a.date));
  const editions = newestFirst(input.editions);
  const siteName = input.siteName ?? editions[0]?.name ?? DEFAULT_SITE_NAME;
  const languages = input.languages?.configured ?? [];
  // The written language at the root, every translated one in its own section (/de/2026-05-04/).
  const sections = [
    { language: languages[0], prefix: '', editions },
    ...[...(input.languages?.translated ?? [])]
      .filter(([, list]) => list.length > 0)
      .map(([language, list]) => ({ language, prefix: `${language}/`, editions: newestFirst(list) })),
  ];
  const dates = sections.map((section) => new Set(section.editions.map((edition) => edition.date)));
  const alternates =
    sections.length > 1
      ? (path: string) =>
          sections
            .filter((_, index) => !/^\d{4}-\d{2}-\d{2}\//.test(path) || dates[index]!.has(path.slice(0, 10)))
            .map((section) => ({
              language: section.language ?? 'en',
              href: `${home}${section.prefix}${path}`,
            }))
      : undefined;
  const files: SiteFiles = new Map();
  let rootOptions: SiteOptions = {};
  for (const section of sections) {
    const options: SiteOptions = {
      baseUrl: `${home}${section.prefix}`,
      siteName,
      fullSite: true,
      // Unset: a slot `digest serve` fills when it can take subscriptions; a static copy of the site shows no form.
      subscribe: input.subscribeForm ?? 'slot',
      ...(countedLink ? { countedLink } : {}),
      ...(input.images ? { images: input.images } : {}),
      ...(input.look ? { look: input.look } : {}),
      locale: {
        ...(section.language ? { language: section.language } : {}),
        ...(languages.length > 1 ? { languages } : {}),
        ...(alternates ? { alternates } : {}),
        ...(section.prefix ? { assetRoot: '../../', section: section.prefix } : {}),
      },
    };
    if (!section.prefix) rootOptions = options;
    for (const [path, data] of sectionFiles(section.editions, options, input))
      files.set(section.prefix + path, data);
  }
  const summaries = editions.map(summaryOf);
  const { alternates: _, ...notFoundLocale } = rootOptions.locale ?? {};
  files.set('404.html', renderNotFoundHtml({ ...rootOptions, locale: notFoundLocale }));
  files.set('robots.txt', renderRobots(home));
  const translatedSections = sections
    .filter((section) => section.prefix)
    .map((section) => ({ prefix: section.prefix, editions: section.editions.map(summaryOf) }));
  files.set('sitemap.xml', renderSitemap(summaries, home, translatedSections) ?? '');
  files.set('favicon.svg', `${FAVICON_SVG}\n`);
  return files;
}

/** One language's pages, archive, feeds and search, under its section's base URL. */
function sectionFiles(
  editions: Edition[],
  options: SiteOptions,
  input: Pick<PublishSiteInput, 'feedLimit' | 'images'>,
): SiteFiles {
  const home = options.baseUrl!;
  const files: SiteFiles = new Map();
  for (const edition of editions) {
    assertEditionDate(edition.date);
    files.set(`${edition.date}/index.html`, renderEditionHtml(edition, options));
    files.set(`${edition.date}/edition.json`, renderEditionJson(edition));
    files.set(
      `${edition.date}/edition.md`,
      renderEditionMarkdown(edition, {
        pageUrl: `${home}${edition.date}/`,
        siteUrl: home,
        ...(input.images ? { images: input.images } : {}),
      }),
    );
  }
  files.set('index.html', renderArchiveHtml(editions.map(summaryOf), editions[0] ?? null, options));
  const feeds = renderFeeds(editions, {
    baseUrl: home,
    siteName: options.siteName!,
    ...(input.feedLimit ? { limit: input.feedLimit } : {}),
    ...(input.images ? { images: input.images } : {}),
    logoUrl: siteLogo(options.look) ?? undefined,
  });
  files.set(FEED_FILES.rss, feeds.rss);
  files.set(FEED_FILES.atom, feeds.atom);
  files.set(FEED_FILES.json, feeds.json);
  files.set(SEARCH_FILES.page, renderSearchHtml(options));
  files.set(SEARCH_FILES.script, SEARCH_SCRIPT);
  files.set(SEARCH_FILES.index, renderSearchIndex(editions));
  return files;
}

export async function publishSite(input: PublishSiteOptions): Promise<PublishSiteResult> {
  const { fetchImages, fs: _fs, outDir: _outDir, countedLink, ...rest } = input;
  const fetched = fetchImages ? await fetchItemImages(input.editions, fetchImages) : null;
  const files = siteFiles({ ...rest, ...(fetched ? { images: fetched.images } : {}) }, countedLink);
  for (const [path, data] of fetched?.files ?? []) files.set(path, data);
  const written = await writeFiles(input.fs, input.outDir, files);
  let bytes = 0;
  for (const data of files.values())
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  return { files: written, bytes, warnings: fetched?.warnings ?? [], images: fetched?.images ?? new Map() };
}
