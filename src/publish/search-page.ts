// Search that works on any static host: a compact prebuilt index (search-index.json), a search page, and search.js.

import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { renderPage } from './_layout.js';
import { toEditionView } from './item-view.js';
import { html, jsonText } from './template.js';
import { DEFAULT_SITE_NAME, pageLanguage, type SiteOptions } from './types.js';

export { SEARCH_SCRIPT } from './_search-script.js';

export const SEARCH_FILES = {
  index: 'search-index.json',
  script: 'search.js',
  page: 'search/index.html',
} as const;

/** Authors kept per item: enough to find a paper by its lead authors without shipping 200-name lists. */
const AUTHORS_KEPT = 3;

/**
 * `{ v, editions: [[date, title]], items: [[editionIndex, title, anchor, authors, arxivId]] }`, newest edition first.
 * Arrays instead of objects keep ten years of editions well under a megabyte.
 */
export function renderSearchIndex(editions: Edition[]): string {
  const newestFirst = [...editions].sort((a, b) => compareText(b.date, a.date));
  const items: [number, string, string, string, string][] = [];
  const views = newestFirst.map((edition) => toEditionView(edition));
  views.forEach((edition, editionIndex) => {
    for (const item of edition.items)
      items.push([
        editionIndex,
        item.title,
        item.anchor,
        item.authors.slice(0, AUTHORS_KEPT).join(', '),
        item.arxiv?.id ?? '',
      ]);
  });
  const index = { v: 1, editions: views.map((edition) => [edition.date, edition.title]), items };
  return `${jsonText(index)}\n`;
}

export function renderSearchHtml(options: SiteOptions = {}): string {
  const siteName = options.siteName ?? DEFAULT_SITE_NAME;
  const body = html`<h1>Search</h1>
<form id="search-form" class="search-form" role="search" action="index.html" method="get" data-index="../${SEARCH_FILES.index}">
<label class="visually-hidden" for="search-input">Search every edition</label>
<input id="search-input" type="search" name="q" autocomplete="off" placeholder="e.g. agents, safety, 2604.24902">
<button type="submit">Search</button>
</form>
<p id="search-status" role="status">Search runs in your browser. Without JavaScript, the <a href="../index.html#archive">archive</a> lists every edition.</p>
<ol id="search-results" class="archive"></ol>`;
  return renderPage({
    title: 'Search',
    titleSuffix: siteName,
    description: `Search every edition of ${siteName}.`,
    site: { name: siteName, root: '../', fullSite: true, subscribe: options.subscribe, look: options.look },
    locale: pageLanguage(options, 'search/'),
    body,
    scripts: [SEARCH_FILES.script],
  });
}
