// The small fixed files of a static site: sitemap.xml, robots.txt and the 404 page.

import type { EditionSummary } from '../core/ports.js';
import { compareText } from '../core/text.js';
import { absoluteUrl } from '../core/urls.js';
import { renderPage } from './_layout.js';
import { html, join, xml } from './template.js';
import { DEFAULT_SITE_NAME, type SiteOptions } from './types.js';

/** sitemap.xml: the front page and every edition page; null without a base URL (sitemaps need absolute URLs). */
export function renderSitemap(
  editions: EditionSummary[],
  baseUrl: string | undefined,
  /** Other languages' sections ("de/") and their editions. */
  sections: readonly { prefix: string; editions: EditionSummary[] }[] = [],
): string | null {
  const home = absoluteUrl(baseUrl, '');
  if (!home) return null;
  const entry = (loc: string, lastmod: string | undefined) =>
    xml`  <url><loc>${loc}</loc>${lastmod ? xml`<lastmod>${lastmod}</lastmod>` : null}</url>`;
  const urls = [{ prefix: '', editions }, ...sections].flatMap((section) => {
    const newestFirst = [...section.editions].sort((a, b) => compareText(b.date, a.date));
    return [
      entry(`${home}${section.prefix}`, newestFirst[0] ? lastModified(newestFirst[0]) : undefined),
      ...newestFirst.map((edition) =>
        entry(`${home}${section.prefix}${edition.date}/`, lastModified(edition)),
      ),
    ];
  });
  return xml`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${join(urls, '\n', 'xml')}
</urlset>
`.toString();
}

function lastModified(edition: EditionSummary): string {
  const published = edition.publishedAt?.slice(0, 10);
  return published && /^\d{4}-\d{2}-\d{2}$/.test(published) && published > edition.date
    ? published
    : edition.date;
}

export function renderRobots(baseUrl: string | undefined): string {
  const sitemap = absoluteUrl(baseUrl, 'sitemap.xml');
  return `User-agent: *\nAllow: /\n${sitemap ? `Sitemap: ${sitemap}\n` : ''}`;
}

/** Served for any missing path, so its links are absolute (base URL) or root-relative. */
export function renderNotFoundHtml(options: SiteOptions = {}): string {
  const siteName = options.siteName ?? DEFAULT_SITE_NAME;
  const root = absoluteUrl(options.baseUrl, '') ?? '/';
  return renderPage({
    title: 'Page not found',
    titleSuffix: siteName,
    description: `This page of ${siteName} does not exist.`,
    site: {
      name: siteName,
      root,
      fullSite: options.fullSite,
      subscribe: options.subscribe,
      look: options.look,
    },
    body: html`<h1>Page not found</h1>
<p>There is no page at this address. Every edition is listed in the <a href="${root}index.html#archive">archive</a>${options.fullSite ? html`, and you can <a href="${root}search/index.html">search</a> them` : null}.</p>`,
  });
}
