// The edition page: the newsletter's web form, one card per item, shaped like the reference edition.
import type { Edition } from '../core/types.js';
import { absoluteUrl, revisionPath } from '../core/urls.js';
import { MAX_AUTHORS } from './_html.js';
import { renderPage } from './_layout.js';
import { type ItemView, leadImage, type SectionLink, toEditionView } from './item-view.js';
import { type Fragment, html, join } from './template.js';
import { DEFAULT_SITE_NAME, type EditionPageOptions, pageLanguage } from './types.js';
import { longDateIn, uiText } from './ui-text.js';

/** The page budget (HTML + CSS, images excluded). */
export const PAGE_BUDGET_BYTES = 40 * 1024;
/** Author caps tried in turn until the page fits its budget: full lists (as the reference) first. */
const AUTHOR_CAPS = [MAX_AUTHORS, 20, 8];

export function renderEditionHtml(edition: Edition, options: EditionPageOptions = {}): string {
  let page = '';
  for (const cap of AUTHOR_CAPS) {
    page = renderWithAuthorCap(edition, options, cap);
    if (Buffer.byteLength(page) <= PAGE_BUDGET_BYTES) break;
  }
  return page;
}

function renderWithAuthorCap(edition: Edition, options: EditionPageOptions, maxAuthors: number): string {
  const view = toEditionView(edition, {
    maxAuthors,
    ...(options.images ? { images: options.images } : {}),
    imageRoot: options.locale?.assetRoot ?? '../',
    countedLink: options.countedLink && ((itemKey: string) => options.countedLink!(edition, itemKey)),
  });
  const language = options.locale?.language;
  const words = language ? uiText(language) : null;
  const siteName = options.siteName ?? (view.name || DEFAULT_SITE_NAME);
  const body = html`<article class="edition">
<h1>${view.title}</h1>
<p class="dateline"><time datetime="${view.date}">${words ? longDateIn(edition.date, language) : view.longDate}</time> · ${words ? words.papers(edition.items.length) : view.count}</p>
${supersededBanner(edition, options)}${correctionNotes(edition)}<p class="intro">${view.intro}</p>
<ol class="items">
${join(view.items.map(renderCard), '\n')}
</ol>
</article>`;
  return renderPage({
    title: view.title,
    titleSuffix: siteName,
    description: view.intro,
    body,
    site: {
      name: siteName,
      root: '../',
      fullSite: options.fullSite,
      subscribe: options.subscribe,
      look: options.look,
    },
    share: {
      canonical: absoluteUrl(options.baseUrl, `${edition.date}/`),
      ogType: 'article',
      ogImage: leadImage(edition, options.images, absoluteUrl(options.baseUrl, '')),
    },
    locale: pageLanguage(options, `${edition.date}/`),
  });
}

/** On an earlier revision's page: what it is, and a link to the revision readers should read now. */
function supersededBanner(edition: Edition, options: EditionPageOptions): Fragment | null {
  const superseded = options.supersededBy;
  if (!superseded) return null;
  return html`<p class="superseded" role="note"><strong>An earlier revision.</strong> This is revision ${superseded.revision} of this edition, as readers had it; it has since been corrected. <a href="../${edition.date}/">Read the current revision (${superseded.current})</a>.</p>
`;
}

/** A reason as a sentence of its own: it ends in a full stop unless it already ends a sentence. */
const asSentence = (reason: string) =>
  /[.!?…]["'”’)]?$/.test(reason.trim()) ? reason.trim() : `${reason.trim()}.`;

/** "Corrected on DATE: reason." newest first, each linking to the revision it replaced. */
function correctionNotes(edition: Edition): Fragment | null {
  const corrections = edition.corrections ?? [];
  if (!corrections.length) return null;
  const notes = [...corrections].reverse().map(
    (correction) =>
      html`<p class="correction">Corrected on <time datetime="${correction.at}">${correction.at.slice(0, 10)}</time>: ${asSentence(correction.reason)} <a href="../${revisionPath(edition.date, correction.revision - 1)}">Read revision ${correction.revision - 1}</a>.</p>
`,
  );
  return join(notes, '');
}

export function renderCard(item: ItemView): Fragment {
  const image = item.image
    ? html`<img src="${item.image.src}" alt="${item.image.alt}"${dimensions(item.image)} loading="lazy" decoding="async">
`
    : null;
  // The reference reads image, level, title: the badge sits between the picture and the heading.
  return html`<li class="card" id="${item.anchor}">
${image}<p class="badge level-${item.levelClass}">${item.level}</p>
<h2>${item.url ? html`<a href="${item.url}">${item.title}</a>` : item.title}</h2>
${item.authorLine ? html`<p class="authors">${item.authorLine}</p>\n` : null}<p class="summary">${item.summary}</p>
<h3>Takeaways</h3>
<ul class="takeaways">${item.takeaways.map((line, index) => html`<li>${line}${renderSectionLink(item.takeawaySources[index])}</li>`)}</ul>
${item.facts.length ? html`<p class="facts">${renderFacts(item)}</p>\n` : null}<p class="meta"><span>${renderFooter(item)}</span><a class="permalink" href="${item.permalink}" aria-label="Permalink to item ${item.number}">#</a></p>
</li>`;
}

/** width/height attributes when the image's size is known, so the page does not jump while it loads. */
export function dimensions(image: { width: number | null; height: number | null }): Fragment | null {
  return image.width && image.height ? html` width="${image.width}" height="${image.height}"` : null;
}

/**
 * `N citations · via SOURCE · arXiv:ID · read in full`: citations only when known, the arXiv part only with an id,
 * what a paper was written from only when the edition recorded it (an abstract-only paper says why on hover).
 */
export function renderFooter(item: ItemView): Fragment {
  return html`${item.citations ? html`${item.citations} · ` : null}via ${item.source}${
    item.arxiv ? html` · <a href="${item.arxiv.url}">arXiv:${item.arxiv.id}</a>` : null
  }${item.readNote ? html` · <span class="read"${item.readWhy ? html` title="${item.readWhy}"` : null}>${item.readNote}</span>` : null}`;
}

/** " §4": the paper section a takeaway comes from, small and linked, its supporting words on hover. */
export function renderSectionLink(source: SectionLink | null | undefined): Fragment | null {
  if (!source) return null;
  return html` <a class="src" href="${source.url}" title="${source.quote}">${source.label}</a>`;
}

/** "Code · Weights · Apache-2.0 · 512×A100": what a practitioner can use, as the source states it. */
export function renderFacts(item: ItemView): Fragment[] {
  return item.facts.map((fact, index) => {
    const sep = index > 0 ? ' · ' : '';
    return fact.url ? html`${sep}<a href="${fact.url}">${fact.label}</a>` : html`${sep}${fact.label}`;
  });
}
