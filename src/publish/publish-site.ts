// The whole static site from the published editions: pages, archive, feeds, search, sitemap — same input, same bytes.
import type { FileSystem } from '../core/ports.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from './_html.js';
import { FAVICON_SVG } from './_layout.js';
import { renderArchiveHtml } from './archive-html.js';
import { renderEditionHtml } from './edition-html.js';
import { renderEditionJson } from './edition-json.js';
import { PublishError } from './errors.js';
import { FEED_FILES, renderFeeds } from './feeds.js';
import { type FetchImagesOptions, fetchItemImages, type ImageMap } from './item-images.js';
import { renderEditionMarkdown } from './markdown.js';
import { renderSearchHtml, renderSearchIndex, SEARCH_FILES, SEARCH_SCRIPT } from './search.js';
import { renderNotFoundHtml, renderRobots, renderSitemap } from './site-files.js';
import { DEFAULT_SITE_NAME, type SiteOptions } from './types.js';
import { assertEditionDate, type SiteFiles, summaryOf, writeFiles } from './write-site.js';

export interface PublishSiteInput {
  fs: FileSystem;
  outDir: string;
  /** Every edition the site shows (the published ones), any order. */
  editions: Edition[];
  /** Absolute URL of the site: feeds, sitemap, canonical and Open Graph links need it. */
  baseUrl: string;
  siteName?: string;
  feedLimit?: number;
  /** Item images published with the site (fetchItemImages); without them no item shows an image. */
  images?: ImageMap;
  /**
   * config server.subscribeForm: true writes the form into every page, false leaves it out; unset leaves the slot
   * `digest serve` fills when subscribing works (a base URL and SMTP configured).
   */
  subscribeForm?: boolean;
}

export interface PublishSiteOptions extends Omit<PublishSiteInput, 'images'> {
  /**
   * Fetch every item image once through this guarded client and publish it under img/; without it the site has
   * no item images. Failures are warnings.
   */
  fetchImages?: FetchImagesOptions;
}

export interface PublishSiteResult {
  files: string[];
  bytes: number;
  /** Images that could not be published (the items show none). */
  warnings: string[];
  /** The published images, for the email of the same run. */
  images: ImageMap;
}

export function siteFiles(input: Omit<PublishSiteInput, 'fs' | 'outDir'>): SiteFiles {
  const home = absoluteUrl(input.baseUrl, '');
  if (!home)
    throw new PublishError(
      `The site needs an absolute http(s) base URL (got "${input.baseUrl}"): pass --base-url.`,
    );
  const editions = [...input.editions].sort((a, b) => b.date.localeCompare(a.date));
  const siteName = input.siteName ?? editions[0]?.name ?? DEFAULT_SITE_NAME;
  const options: SiteOptions = {
    baseUrl: home,
    siteName,
    fullSite: true,
    // Unset: a slot `digest serve` fills when it can take subscriptions; a static copy of the site shows no form.
    subscribe: input.subscribeForm ?? 'slot',
    ...(input.images ? { images: input.images } : {}),
  };
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
  const summaries = editions.map(summaryOf);
  files.set('index.html', renderArchiveHtml(summaries, editions[0] ?? null, options));
  files.set('404.html', renderNotFoundHtml(options));
  files.set('robots.txt', renderRobots(home));
  files.set('sitemap.xml', renderSitemap(summaries, home) ?? '');
  files.set('favicon.svg', `${FAVICON_SVG}\n`);
  const feeds = renderFeeds(editions, {
    baseUrl: home,
    siteName,
    ...(input.feedLimit ? { limit: input.feedLimit } : {}),
    ...(input.images ? { images: input.images } : {}),
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
  const { fetchImages, ...rest } = input;
  const fetched = fetchImages ? await fetchItemImages(input.editions, fetchImages) : null;
  const files = siteFiles({ ...rest, ...(fetched ? { images: fetched.images } : {}) });
  for (const [path, data] of fetched?.files ?? []) files.set(path, data);
  const written = await writeFiles(input.fs, input.outDir, files);
  let bytes = 0;
  for (const data of files.values())
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  return { files: written, bytes, warnings: fetched?.warnings ?? [], images: fetched?.images ?? new Map() };
}
