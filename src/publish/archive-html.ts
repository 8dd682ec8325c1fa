// The site's front page: the latest edition in brief, then every edition, newest first.
import { formatLongDate } from '../core/dates.js';
import type { Edition } from '../core/types.js';
import type { EditionSummary } from '../store/types.js';
import { absoluteUrl, escapeHtml, plural, safeImageUrl } from './_html.js';
import { renderPage } from './_layout.js';
import { DEFAULT_SITE_NAME, type SiteOptions } from './types.js';

export function renderArchiveHtml(
  editions: EditionSummary[],
  latest: Edition | null,
  options: SiteOptions = {},
): string {
  const siteName = options.siteName ?? latest?.name ?? editions[0]?.name ?? DEFAULT_SITE_NAME;
  const newestFirst = [...editions].sort((a, b) => b.date.localeCompare(a.date));
  const body = [
    `<h1>${escapeHtml(siteName)}</h1>`,
    latest
      ? renderLatest(latest)
      : newestFirst[0]
        ? renderLatestSummary(newestFirst[0])
        : '<p>No editions yet.</p>',
    renderArchiveList(newestFirst),
  ].join('\n');
  return renderPage({
    title: siteName,
    ...(latest ? { titleSuffix: latest.title } : {}),
    description: latest?.intro ?? `Every edition of ${siteName}.`,
    siteName,
    root: '',
    canonical: absoluteUrl(options.baseUrl, ''),
    ogImage: latest?.items.map((item) => safeImageUrl(item.image)).find(Boolean) ?? null,
    body,
    fullSite: options.fullSite,
  });
}

function renderLatest(edition: Edition): string {
  const date = escapeHtml(edition.date);
  return `<section class="latest" aria-labelledby="latest-title">
<p class="dateline">Latest edition · <time datetime="${date}">${escapeHtml(formatLongDate(edition.date))}</time> · ${plural(edition.items.length, 'paper')}</p>
<h2 id="latest-title"><a href="${date}/index.html">${escapeHtml(edition.title)}</a></h2>
<p>${escapeHtml(edition.intro)}</p>
<p><a href="${date}/index.html">Read the ${escapeHtml(formatLongDate(edition.date))} edition</a></p>
</section>`;
}

/** When only the summary of the newest edition is at hand (a build of an older week). */
function renderLatestSummary(edition: EditionSummary): string {
  const date = escapeHtml(edition.date);
  return `<section class="latest" aria-labelledby="latest-title">
<p class="dateline">Latest edition · <time datetime="${date}">${escapeHtml(formatLongDate(edition.date))}</time> · ${plural(edition.itemCount, 'paper')}</p>
<h2 id="latest-title"><a href="${date}/index.html">${escapeHtml(edition.title)}</a></h2>
</section>`;
}

/** Grouped by year so ten years of weekly editions stay scannable. */
function renderArchiveList(editions: EditionSummary[]): string {
  const years = new Map<string, EditionSummary[]>();
  for (const edition of editions) {
    const year = edition.date.slice(0, 4);
    const list = years.get(year);
    if (list) list.push(edition);
    else years.set(year, [edition]);
  }
  const sections = [...years].map(
    ([year, list]) => `<h3>${escapeHtml(year)}</h3>
<ul class="archive">
${list.map(renderArchiveEntry).join('\n')}
</ul>`,
  );
  return `<section aria-labelledby="archive">
<h2 id="archive">Archive</h2>
${sections.join('\n') || '<p>No editions yet.</p>'}
</section>`;
}

function renderArchiveEntry(edition: EditionSummary): string {
  const date = escapeHtml(edition.date);
  return `<li><time datetime="${date}">${escapeHtml(formatLongDate(edition.date))}</time> <a href="${date}/index.html">${escapeHtml(edition.title)}</a> <span class="count">(${plural(edition.itemCount, 'paper')})</span></li>`;
}
