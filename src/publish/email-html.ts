// The HTML email: the frames of its MJML template, compiled ahead (scripts/compile-email.mjs → _email-frames.ts:
// table markup, inline styles, Outlook's conditionals), filled with the edition, one section per item.
import { DEFAULT_UNSUBSCRIBE_URL } from '../config/publish-schema.js';
import type { Edition, Level } from '../core/types.js';
import { absoluteUrl, safeUrl } from '../core/urls.js';
import { EMAIL_FRAMES } from './_email-frames.js';
import { renderFacts, renderFooter, renderSectionLink } from './edition-html.js';
import type { ImageMap } from './item-images.js';
import { type ItemView, plainText, toEditionView } from './item-view.js';
import { type SenderOptions, senderHtml, senderLogo } from './sender-identity.js';
import { type Fragment, html, raw } from './template.js';
import { longDateIn, type UiText, uiText } from './ui-text.js';

export { DEFAULT_UNSUBSCRIBE_URL };

export interface EmailOptions extends SenderOptions {
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
  const title = html`${`${view.title} — ${view.name}`}`;
  const accent = options.sender?.accentColor ?? '#0b57b0';
  const logo = senderLogo(options.sender, view.name);
  const header = fill(options.note ? EMAIL_FRAMES.headerWithNote : EMAIL_FRAMES.header, {
    MASTHEAD: html`${logo ? html`${logo}<br>` : null}${view.name}${pageUrl ? html` · <a href="${pageUrl}" style="color:${accent}">${words.viewInBrowser}</a>` : null}`,
    HEADLINE: html`${view.title}`,
    DATELINE: html`${options.language ? longDateIn(edition.date, options.language) : view.longDate} · ${options.language ? words.papers(edition.items.length + (options.alsoInEdition?.length ?? 0)) : view.count}`,
    INTRO: html`${view.intro}`,
    NOTE: html`${options.note}`,
  });
  const footer = fill(EMAIL_FRAMES.footer, {
    FOOTER: linksStyled(
      html`${words.youReceive(view.name)}${preferences ? html` <a href="${preferences}">${words.yourEdition}</a>.` : null}${unsubscribe ? html` <a href="${unsubscribe}">${words.unsubscribe}</a>.` : null}${senderHtml(options.sender, 'margin:8px 0 0')}`,
      'underline',
    ),
  });
  const sections = [
    header,
    ...view.items.map((item) => renderItem(item, words)),
    ...(options.alsoInEdition?.length ? [renderAlso(options.alsoInEdition, words.alsoInEdition)] : []),
    footer,
  ];
  const start = fill(EMAIL_FRAMES.start, {
    LANG: html`${options.language ?? 'en'}`,
    TITLE: title,
    PREVIEW: html`${view.intro.slice(0, 140)}`,
  });
  // As MJML ends its own output: an Outlook conditional closed and the next opened at once become one.
  return `${start}${sections.join('\n')}${EMAIL_FRAMES.end}`.replace(
    /(<!\[endif]-->\s*?<!--\[if mso \| IE]>)/gm,
    '',
  );
}

/** A frame with its `@@NAME@@` slots filled (markup rendered by html``, so escaped); an unnamed slot is empty. */
function fill(frame: string, slots: Record<string, Fragment>): string {
  return frame.replace(/@@([A-Z]+)@@/g, (_slot, name: string) => slots[name]?.toString() ?? '');
}

/**
 * The link colour of the template's `.t a` / `.f a` rules, inline on each link of `fragment` as MJML's inliner put
 * it (some clients drop <style>); the dark palette's rule overrides it where honoured.
 */
function linksStyled(fragment: Fragment, decoration: 'none' | 'underline'): Fragment {
  return raw(
    fragment
      .toString()
      .replace(/<a\b([^>]*)>/g, (tag, attributes: string) =>
        attributes.includes(' style=')
          ? tag
          : `<a${attributes} style="color: #0b57b0; text-decoration: ${decoration};">`,
      ),
  );
}

function renderAlso(items: readonly AlsoItem[], heading: string): string {
  const entries = items.map((item) => {
    const url = safeUrl(item.url);
    const title = plainText(item.title);
    return html`<li>${url ? html`<a href="${url}">${title}</a>` : title}</li>`;
  });
  const also = html`<h2 style="margin:0 0 8px;font-size:18px">${heading}</h2>
<ul style="margin:0;padding-left:20px">${entries}</ul>`;
  return fill(EMAIL_FRAMES.also, { ALSO: linksStyled(also, 'none') });
}

function renderItem(item: ItemView, words: UiText): string {
  const title = item.url ? html`<a href="${item.url}">${item.title}</a>` : html`${item.title}`;
  const authors = item.authorLine
    ? html`<p class="m" style="margin:0 0 8px;color:#55585e;font-size:14px">${item.authorLine}</p>`
    : null;
  // In the card's `.t` box, the footer's links in its `.f` line (underlined), the others not.
  const footer = linksStyled(html`${renderFooter(item)}`, 'underline');
  const content = html`<p class="lv" style="margin:0 0 6px;font-size:13px;font-weight:700;color:#17457f">${words.levels[item.level as Level] ?? item.level}</p>
<h2 style="margin:0 0 8px;font-size:20px;line-height:1.3">${title}</h2>
${authors}
<p style="margin:0 0 10px">${item.summary}</p>
<p style="margin:0 0 4px;font-weight:700">${words.takeaways}</p>
<ul style="margin:0 0 10px;padding-left:20px">${item.takeaways.map((line, index) => html`<li>${line}${renderSectionLink(item.takeawaySources[index])}</li>`)}</ul>
${item.facts.length ? html`<p style="margin:0 0 6px;font-size:13px" class="m">${renderFacts(item)}</p>` : null}<p style="margin:0;font-size:13px;color:#55585e" class="f m">${footer}</p>`;
  const slots = { ITEM: linksStyled(content, 'none') };
  if (!item.image) return fill(EMAIL_FRAMES.item, slots);
  const image = { SRC: html`${item.image.src}`, ALT: html`${item.image.alt}` };
  if (!item.url) return fill(EMAIL_FRAMES.itemWithImage, { ...slots, ...image });
  return fill(EMAIL_FRAMES.itemWithLinkedImage, { ...slots, ...image, HREF: html`${item.url}` });
}
