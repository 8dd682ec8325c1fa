// The site's front page: the latest edition in brief, then every edition, newest first.
import { formatLongDate } from '../core/dates.js';
import type { EditionSummary } from '../core/ports.js';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import { plural } from './_html.js';
import { renderPage } from './_layout.js';
import { leadImage, toEditionView } from './item-view.js';
import { type Fragment, html, join } from './template.js';
import { DEFAULT_SITE_NAME, pageLanguage, type SiteOptions } from './types.js';

export function renderArchiveHtml(
  editions: EditionSummary[],
  latest: Edition | null,
  options: SiteOptions = {},
): string {
  const siteName = options.siteName ?? latest?.name ?? editions[0]?.name ?? DEFAULT_SITE_NAME;
  const newestFirst = [...editions].sort((a, b) => compareText(b.date, a.date));
  const body = html`<h1>${siteName}</h1>
${latest ? renderLatest(latest) : newestFirst[0] ? renderLatestSummary(newestFirst[0]) : html`<p>No editions yet.</p>`}
${renderArchiveList(newestFirst)}`;
  return renderPage({
    title: siteName,
    ...(latest ? { titleSuffix: latest.title } : {}),
    description: latest?.intro ?? `Every edition of ${siteName}.`,
    body,
    site: {
      name: siteName,
      root: '',
      fullSite: options.fullSite,
      subscribe: options.subscribe,
      look: options.look,
    },
    share: {
      canonical: absoluteUrl(options.baseUrl, ''),
      ogImage: latest ? leadImage(latest, options.images, absoluteUrl(options.baseUrl, '')) : null,
    },
    locale: pageLanguage(options, ''),
  });
}

function renderLatest(edition: Edition): Fragment {
  const view = toEditionView(edition);
  return html`<section class="latest" aria-labelledby="latest-title">
<p class="dateline">Latest edition · <time datetime="${view.date}">${view.longDate}</time> · ${view.count}</p>
<h2 id="latest-title"><a href="${view.date}/index.html">${view.title}</a></h2>
<p>${view.intro}</p>
<p><a href="${view.date}/index.html">Read the ${view.longDate} edition</a></p>
</section>`;
}

/** When only the summary of the newest edition is at hand (a build of an older week). */
function renderLatestSummary(edition: EditionSummary): Fragment {
  return html`<section class="latest" aria-labelledby="latest-title">
<p class="dateline">Latest edition · <time datetime="${edition.date}">${formatLongDate(edition.date)}</time> · ${plural(edition.itemCount, 'paper')}</p>
<h2 id="latest-title"><a href="${edition.date}/index.html">${edition.title}</a></h2>
</section>`;
}

/** Grouped by year so ten years of weekly editions stay scannable. */
function renderArchiveList(editions: EditionSummary[]): Fragment {
  const years = new Map<string, EditionSummary[]>();
  for (const edition of editions) {
    const year = edition.date.slice(0, 4);
    const list = years.get(year);
    if (list) list.push(edition);
    else years.set(year, [edition]);
  }
  const sections = [...years].map(
    ([year, list]) => html`<h3>${year}</h3>
<ul class="archive">
${join(list.map(renderArchiveEntry), '\n')}
</ul>`,
  );
  return html`<section aria-labelledby="archive">
<h2 id="archive">Archive</h2>
${sections.length ? join(sections, '\n') : html`<p>No editions yet.</p>`}
</section>`;
}

function renderArchiveEntry(edition: EditionSummary): Fragment {
  return html`<li><time datetime="${edition.date}">${formatLongDate(edition.date)}</time> <a href="${edition.date}/index.html">${edition.title}</a> <span class="count">(${plural(edition.itemCount, 'paper')})</span></li>`;
}
