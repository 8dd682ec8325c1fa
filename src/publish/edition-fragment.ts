// The edition as an HTML fragment for other readers' pages (feed entries): absolute links, no layout, sanitised.
import sanitizeHtml from 'sanitize-html';
import { formatLongDate } from '../core/dates.js';
import type { Edition } from '../core/types.js';
import { authorLine, escapeHtml, itemAnchors, plural, safeImageUrl, safeUrl } from './_html.js';
import { CARD_IMAGE, renderFooter } from './edition-html.js';

export function renderEditionFragment(edition: Edition, pageUrl: string | null): string {
  const anchors = itemAnchors(edition.items.map((item) => item.title));
  const items = edition.items.map((item, index) => {
    const title = escapeHtml(item.title);
    const url = safeUrl(item.url);
    const image = safeImageUrl(item.image);
    const permalink = pageUrl
      ? ` · <a href="${escapeHtml(`${pageUrl}#${anchors[index]}`)}">Permalink</a>`
      : '';
    return [
      image
        ? `<p><img src="${escapeHtml(image)}" alt="${title}" width="${CARD_IMAGE.width}" height="${CARD_IMAGE.height}"></p>`
        : '',
      `<h2>${url ? `<a href="${escapeHtml(url)}">${title}</a>` : title}</h2>`,
      `<p><strong>${escapeHtml(item.level)}</strong>${item.authors.length ? ` · ${escapeHtml(authorLine(item.authors))}` : ''}</p>`,
      `<p>${escapeHtml(item.summary)}</p>`,
      '<h3>Takeaways</h3>',
      `<ul>${item.takeaways.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
      `<p>${renderFooter(item)}${permalink}</p>`,
    ]
      .filter(Boolean)
      .join('\n');
  });
  const html = [
    `<p><em>${escapeHtml(formatLongDate(edition.date))} · ${plural(edition.items.length, 'paper')}</em></p>`,
    `<p>${escapeHtml(edition.intro)}</p>`,
    ...items,
  ].join('\n');
  return sanitizeFragment(html);
}

/**
 * Everything above is escaped already; this allow-list is the second lock, so a future template slip still cannot put
 * a script, an event handler or a non-http(s) URL into someone's feed reader.
 */
export function sanitizeFragment(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'h2', 'h3', 'ul', 'li', 'a', 'img', 'strong', 'em'],
    allowedAttributes: { a: ['href'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https'],
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
  });
}
