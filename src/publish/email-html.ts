// The HTML email: MJML compiled to table markup with styles inlined, one section per item.
import mjml2html from 'mjml';
import { DEFAULT_UNSUBSCRIBE_URL } from '../config/publish-schema.js';
import { PublishError } from '../core/errors.js';
import type { Edition, Level } from '../core/types.js';
import { absoluteUrl, safeUrl } from '../core/urls.js';
import { renderFacts, renderFooter, renderSectionLink } from './edition-html.js';
import type { ImageMap } from './item-images.js';
import { type ItemView, plainText, toEditionView } from './item-view.js';
import { type Fragment, html, join, raw } from './template.js';
import { longDateIn, type UiText, uiText } from './ui-text.js';

export { DEFAULT_UNSUBSCRIBE_URL };

export interface EmailOptions {
  /** The edition's web page, for "View in your browser" and permalinks. */
  pageUrl?: string | null;
  /** Where readers unsubscribe; a placeholder the sending tool fills in per subscriber. */
  unsubscribeUrl?: string;
  /** The site's absolute URL (publish.baseUrl): images are shown from their published copies under it, else none. */
  siteUrl?: string | null;
  /** Item images published with the site. */
  images?: ImageMap;
  /** The mail's language (a BCP 47 tag): `lang` and the words around the content. Default English. */
  language?: string;
  /** A personal mail: the items not shown in full, as titles linking to the edition page. */
  alsoInEdition?: readonly AlsoItem[];
  /** A personal mail: a line above the items (e.g. nothing on the reader's topics this week). */
  note?: string;
  /** The reader's own page to choose topics and language (a signed link). */
  preferencesUrl?: string;
}

/** Counted links (analytics): each item's link through the service's /r/ redirect, by item key. */
export type CountedLink = (itemKey: string) => string;

/** An item a personal mail names without showing it. */
export interface AlsoItem {
  title: string;
  /** The item on the edition page. */
  url: string | null;
}

/** Content width of the email body; images get exactly this width so clients never scale them unpredictably. */
export const EMAIL_IMAGE_WIDTH = 528;

// Mid-tone colours that keep their contrast when a client inverts them, plus an explicit dark palette for clients
// that honour prefers-color-scheme (Apple Mail, iOS, Outlook.com). Classes are inlined by MJML; the media query stays.
const STYLES = raw(`
<mj-raw><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"></mj-raw>
<mj-style inline="inline">
  .t a { color: #0b57b0; text-decoration: none; }
  .f a { color: #0b57b0; text-decoration: underline; }
</mj-style>
<mj-style>
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  @media (prefers-color-scheme: dark) {
    .bg, .bg > div { background: #121316 !important; }
    .card, .card > table, .card td { background: #1c1e22 !important; }
    .bg div, .bg p, .bg h1, .bg h2, .bg li { color: #e9e9ec !important; }
    .bg .m { color: #b4b8bf !important; }
    .bg .lv { color: #b7d0ff !important; }
    .bg a { color: #8cb8ff !important; }
  }
</mj-style>`);

// Web-mail shows the message inside its own page; opened on its own (or by a screen reader) it is one main region.
const LANDMARK = raw(`<mj-html-attributes><mj-selector path="div[aria-roledescription=email]">
<mj-html-attribute name="role">main</mj-html-attribute></mj-selector></mj-html-attributes>`);

export async function renderEmailHtml(
  edition: Edition,
  options: EmailOptions = {},
  countedLink?: CountedLink,
): Promise<string> {
  const pageUrl = safeUrl(options.pageUrl);
  const unsubscribe = safeUrl(options.unsubscribeUrl ?? DEFAULT_UNSUBSCRIBE_URL);
  // Mail clients load images from the published site only: absolute URLs under the base URL, else no image.
  const view = toEditionView(edition, {
    pageUrl,
    imageRoot: absoluteUrl(options.siteUrl ?? undefined, ''),
    ...(options.images ? { images: options.images } : {}),
    countedLink,
  });
  const words = uiText(options.language);
  const preferences = safeUrl(options.preferencesUrl);
  const source = html`<mjml lang="${options.language ?? 'en'}">
<mj-head>
<mj-title>${`${view.title} — ${view.name}`}</mj-title>
<mj-preview>${view.intro.slice(0, 140)}</mj-preview>
<mj-attributes>
<mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
<mj-text font-size="16px" line-height="1.55" color="#1b1b1f" padding="0 24px" />
<mj-section padding="0" />
<mj-image padding="0 24px 12px" />
</mj-attributes>
${STYLES}
${LANDMARK}
</mj-head>
<mj-body background-color="#f1f1ee" width="600px" css-class="bg">
<mj-section padding="24px 0 8px"><mj-column>
<mj-text font-size="14px" color="#55585e" css-class="m">${view.name}${pageUrl ? html` · <a href="${pageUrl}" style="color:#0b57b0">${words.viewInBrowser}</a>` : null}</mj-text>
<mj-text font-size="26px" line-height="1.25" font-weight="700" padding="8px 24px 4px"><h1 style="margin:0;font-size:26px">${view.title}</h1></mj-text>
<mj-text font-size="14px" color="#55585e" padding="0 24px 8px" css-class="m">${options.language ? longDateIn(edition.date, options.language) : view.longDate} · ${options.language ? words.papers(edition.items.length + (options.alsoInEdition?.length ?? 0)) : view.count}</mj-text>
<mj-text padding="0 24px 16px">${view.intro}</mj-text>
${options.note ? html`<mj-text padding="0 24px 16px" css-class="m">${options.note}</mj-text>` : null}
</mj-column></mj-section>
${join(
  view.items.map((item) => renderItem(item, words)),
  '\n',
)}
${options.alsoInEdition?.length ? renderAlso(options.alsoInEdition, words.alsoInEdition) : null}
<mj-section padding="16px 0 32px"><mj-column>
<mj-text font-size="13px" color="#55585e" css-class="f m">${words.youReceive(view.name)}${preferences ? html` <a href="${preferences}">${words.yourEdition}</a>.` : null}${unsubscribe ? html` <a href="${unsubscribe}">${words.unsubscribe}</a>.` : null}</mj-text>
</mj-column></mj-section>
</mj-body>
</mjml>`;
  const result = await mjml2html(source.toString(), {
    validationLevel: 'strict',
    keepComments: false,
    ignoreIncludes: true,
  });
  if (result.errors.length) {
    throw new PublishError(
      `MJML rejected the email template: ${result.errors.map((error) => error.formattedMessage).join('; ')}`,
    );
  }
  return result.html;
}

function renderAlso(items: readonly AlsoItem[], heading: string): Fragment {
  const entries = items.map((item) => {
    const url = safeUrl(item.url);
    const title = plainText(item.title);
    return html`<li>${url ? html`<a href="${url}">${title}</a>` : title}</li>`;
  });
  return html`<mj-section padding="0 12px 16px"><mj-column><mj-text css-class="t">
<h2 style="margin:0 0 8px;font-size:18px">${heading}</h2>
<ul style="margin:0;padding-left:20px">${entries}</ul>
</mj-text></mj-column></mj-section>`;
}

function renderItem(item: ItemView, words: UiText = uiText(undefined)): Fragment {
  const title = item.url ? html`<a href="${item.url}">${item.title}</a>` : html`${item.title}`;
  const image = item.image
    ? html`<mj-image src="${item.image.src}" alt="${item.image.alt}" width="${EMAIL_IMAGE_WIDTH}px" height="auto"${item.url ? html` href="${item.url}"` : null} />\n`
    : null;
  const authors = item.authorLine
    ? html`<p class="m" style="margin:0 0 8px;color:#55585e;font-size:14px">${item.authorLine}</p>`
    : null;
  return html`<mj-section padding="0 12px 16px"><mj-column background-color="#ffffff" border-radius="10px" padding="16px 0" css-class="card">
${image}<mj-text css-class="t">
<p class="lv" style="margin:0 0 6px;font-size:13px;font-weight:700;color:#17457f">${words.levels[item.level as Level] ?? item.level}</p>
<h2 style="margin:0 0 8px;font-size:20px;line-height:1.3">${title}</h2>
${authors}
<p style="margin:0 0 10px">${item.summary}</p>
<p style="margin:0 0 4px;font-weight:700">${words.takeaways}</p>
<ul style="margin:0 0 10px;padding-left:20px">${item.takeaways.map((line, index) => html`<li>${line}${renderSectionLink(item.takeawaySources[index])}</li>`)}</ul>
${item.facts.length ? html`<p style="margin:0 0 6px;font-size:13px" class="m">${renderFacts(item)}</p>` : null}<p style="margin:0;font-size:13px;color:#55585e" class="f m">${renderFooter(item)}</p>
</mj-text>
</mj-column></mj-section>`;
}
