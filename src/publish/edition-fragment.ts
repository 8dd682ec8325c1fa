// The edition as an HTML fragment for other readers' pages (feed entries): absolute links, no layout, sanitised.
import sanitizeHtml from 'sanitize-html';
import type { Edition } from '../core/types.js';
import { dimensions, renderFooter } from './edition-html.js';
import type { ImageMap } from './item-images.js';
import { type ItemView, toEditionView } from './item-view.js';
import { type Fragment, html, join } from './template.js';

export interface FragmentOptions {
  /** Absolute URL of the edition page: permalinks. */
  pageUrl: string | null;
  /** Absolute URL of the site: images are only shown from the site's own published copies. */
  home: string | null;
  images?: ImageMap;
}

export function renderEditionFragment(edition: Edition, options: FragmentOptions): string {
  const view = toEditionView(edition, {
    pageUrl: options.pageUrl,
    imageRoot: options.home,
    ...(options.images ? { images: options.images } : {}),
  });
  const fragment = html`<p><em>${view.longDate} · ${view.count}</em></p>
<p>${view.intro}</p>
${join(
  view.items.map((item) => renderItem(item, options.pageUrl !== null)),
  '\n',
)}`;
  return sanitizeFragment(fragment.toString());
}

function renderItem(item: ItemView, permalink: boolean): Fragment {
  return html`${item.image ? html`<p><img src="${item.image.src}" alt="${item.image.alt}"${dimensions(item.image)}></p>\n` : null}<h2>${item.url ? html`<a href="${item.url}">${item.title}</a>` : item.title}</h2>
<p><strong>${item.level}</strong>${item.authorLine ? html` · ${item.authorLine}` : null}</p>
<p>${item.summary}</p>
<h3>Takeaways</h3>
<ul>${item.takeaways.map((line) => html`<li>${line}</li>`)}</ul>
<p>${renderFooter(item)}${permalink ? html` · <a href="${item.permalink}">Permalink</a>` : null}</p>`;
}

/**
 * Everything above is escaped already; this allow-list is the second lock, so a future template slip still cannot put
 * a script, an event handler or a non-http(s) URL into someone's feed reader.
 */
export function sanitizeFragment(markup: string): string {
  return sanitizeHtml(markup, {
    allowedTags: ['p', 'h2', 'h3', 'ul', 'li', 'a', 'img', 'strong', 'em'],
    allowedAttributes: { a: ['href'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
  });
}
