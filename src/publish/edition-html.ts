// The edition page: the newsletter's web form, one card per item, shaped like the reference edition.
import { formatLongDate } from '../core/dates.js';
import { type Edition, type EditionItem, LEVELS } from '../core/types.js';
import {
  absoluteUrl,
  authorLine,
  escapeHtml,
  itemAnchors,
  MAX_AUTHORS,
  plural,
  safeImageUrl,
  safeUrl,
} from './_html.js';
import { renderPage } from './_layout.js';
import { DEFAULT_SITE_NAME, type SiteOptions } from './types.js';

/** Image box the card reserves (the HF thumbnails' shape), so the page does not jump while images load. */
export const CARD_IMAGE = { width: 600, height: 324 } as const;

/** The page budget (HTML + CSS, images excluded). */
export const PAGE_BUDGET_BYTES = 40 * 1024;
/** Author caps tried in turn until the page fits its budget: full lists (as the reference) first. */
const AUTHOR_CAPS = [MAX_AUTHORS, 20, 8];

export function renderEditionHtml(edition: Edition, options: SiteOptions = {}): string {
  let html = '';
  for (const cap of AUTHOR_CAPS) {
    html = renderWithAuthorCap(edition, options, cap);
    if (Buffer.byteLength(html) <= PAGE_BUDGET_BYTES) break;
  }
  return html;
}

function renderWithAuthorCap(edition: Edition, options: SiteOptions, maxAuthors: number): string {
  const siteName = options.siteName ?? edition.name ?? DEFAULT_SITE_NAME;
  const anchors = itemAnchors(edition.items.map((item) => item.title));
  const cards = edition.items.map((item, index) =>
    renderCard(item, anchors[index] ?? `item-${index + 1}`, index + 1, maxAuthors),
  );
  const body = `<article class="edition">
<h1>${escapeHtml(edition.title)}</h1>
<p class="dateline"><time datetime="${escapeHtml(edition.date)}">${escapeHtml(formatLongDate(edition.date))}</time> · ${plural(edition.items.length, 'paper')}</p>
<p class="intro">${escapeHtml(edition.intro)}</p>
<ol class="items">
${cards.join('\n')}
</ol>
</article>`;
  return renderPage({
    title: edition.title,
    titleSuffix: siteName,
    description: edition.intro,
    siteName,
    root: '../',
    canonical: absoluteUrl(options.baseUrl, `${edition.date}/`),
    ogType: 'article',
    ogImage: edition.items.map((item) => safeImageUrl(item.image)).find(Boolean) ?? null,
    body,
    fullSite: options.fullSite,
  });
}

export function renderCard(
  item: EditionItem,
  anchor: string,
  number: number,
  maxAuthors = MAX_AUTHORS,
): string {
  const title = escapeHtml(item.title);
  const url = safeUrl(item.url);
  const image = safeImageUrl(item.image);
  const level = escapeHtml(item.level);
  const levelClass = (LEVELS as readonly string[]).includes(item.level)
    ? item.level.toLowerCase()
    : 'unknown';
  const parts = [
    `<li class="card" id="${anchor}">`,
    image
      ? `<img src="${escapeHtml(image)}" alt="${title}" width="${CARD_IMAGE.width}" height="${CARD_IMAGE.height}" loading="lazy" decoding="async">`
      : '',
    // The reference reads image, level, title: the badge sits between the picture and the heading.
    `<p class="badge level-${levelClass}">${level}</p>`,
    `<h2>${url ? `<a href="${escapeHtml(url)}">${title}</a>` : title}</h2>`,
    item.authors.length ? `<p class="authors">${escapeHtml(authorLine(item.authors, maxAuthors))}</p>` : '',
    `<p class="summary">${escapeHtml(item.summary)}</p>`,
    '<h3>Takeaways</h3>',
    `<ul class="takeaways">${item.takeaways.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p class="meta"><span>${renderFooter(item)}</span><a class="permalink" href="#${anchor}" aria-label="Permalink to item ${number}">#</a></p>`,
    '</li>',
  ];
  return parts.filter(Boolean).join('\n');
}

/** `N citations · via SOURCE · arXiv:ID`: citations only when known, the arXiv part only with an id. */
export function renderFooter(item: EditionItem): string {
  const parts: string[] = [];
  if (item.citations !== null && item.citations !== undefined) parts.push(plural(item.citations, 'citation'));
  parts.push(`via ${escapeHtml(item.source)}`);
  if (item.arxivId) {
    const id = escapeHtml(item.arxivId);
    const path = item.arxivId.split('/').map(encodeURIComponent).join('/');
    parts.push(`<a href="https://arxiv.org/abs/${escapeHtml(path)}">arXiv:${id}</a>`);
  }
  return parts.join(' · ');
}
