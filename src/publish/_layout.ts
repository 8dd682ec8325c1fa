// The document shell every site page shares: head metadata, the security policy and the header/footer.
import type { AnalyticsMode } from '../config/analytics-schema.js';
import { preferenceFields } from './preference-fields.js';
import { imageSources, type SiteLook, siteLogo, siteStyle, styleSourceHash } from './site-policy.js';
import { type Fragment, html, join, markupLength, raw } from './template.js';

/** A "D" on a blue tile: inline in every page (no extra request), also written as favicon.svg for feeds. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57b0"/>' +
  '<path d="M9 8h7a8 8 0 0 1 0 16H9z" fill="#fff"/></svg>';

export const FAVICON = `data:image/svg+xml,${FAVICON_SVG.replace(/"/g, "'").replace(/[<>#]/g, encodeURIComponent)}`;

/**
 * No script runs on content pages: `default-src 'none'` with no script-src. The style is allowed by hash rather than
 * 'unsafe-inline', so even an injected style attribute or <style> would be inert. Pages that run the search script
 * pass `scripts: true`, which allows same-origin script and fetch only.
 */
export function contentSecurityPolicy(scripts = false, look: SiteLook = {}): string {
  const parts = [
    "default-src 'none'",
    // Item images are published with the site, so no reader's browser calls an image host but the logo's, which the
    // editor chose; data: is the inline favicon (an image, which cannot run script).
    `img-src ${imageSources(look)}`,
    `style-src ${styleSourceHash(look)}`,
    "base-uri 'none'",
    "form-action 'self'",
  ];
  if (scripts) parts.push("script-src 'self'", "connect-src 'self'");
  return parts.join('; ');
}

export interface PageOptions {
  title: string;
  /** Appended to the <title> after " — " while the whole stays within MAX_TITLE characters. */
  titleSuffix?: string;
  description: string;
  body: Fragment;
  site: PageSite;
  share?: PageShare;
  locale?: PageLocale;
  /** External scripts (site-relative paths), for the search page only. */
  scripts?: string[];
}

/** The site around the page: its name, the way back to its root, and what it offers beside the page. */
export interface PageSite {
  name: string;
  /** Relative path from the page to the site root: "" or "../". */
  root: string;
  /** Whether the site around the page has feeds and search (publishSite) or just pages (a build). */
  fullSite?: boolean | undefined;
  /**
   * The subscribe form (it posts to /subscribe of `digest serve`): true writes it into the page; 'slot' leaves a
   * marker (SUBSCRIBE_SLOT) that `digest serve` fills when it can take subscriptions, so a static copy shows none.
   */
  subscribe?: SubscribeMode | undefined;
  /** publish.identity's accent colour and logo. */
  look?: SiteLook | undefined;
}

/** What search engines and link previews read: the canonical address and the Open Graph card. */
export interface PageShare {
  /** Absolute URL of this page when the site's base URL is known. */
  canonical?: string | null;
  ogType?: 'website' | 'article';
  ogImage?: string | null;
}

/** The page's language and its versions in the others. */
export interface PageLocale {
  /** The page's language (`<html lang>`); default English. */
  language?: string;
  /** Configured languages (first = written): the subscribe form offers a choice when there are several. */
  languages?: readonly string[];
  /** Every language version of this page, itself included (hreflang links; the first is x-default). */
  alternates?: readonly { language: string; href: string }[];
  /** The language section the page is in ("de/"): `root` leads to the section, the subscribe form to the site root. */
  section?: string;
}

export function renderPage(options: PageOptions): string {
  const { title, description } = options;
  const { name: siteName, root, fullSite, look } = options.site;
  const { canonical, ogImage, ogType } = options.share ?? {};
  const locale = options.locale ?? {};
  const meta = [
    html`<meta charset="utf-8">`,
    html`<meta name="viewport" content="width=device-width, initial-scale=1">`,
    // The policy (constants, and a logo address encoded by site-policy.ts) and the favicon hold no '"' or '&' to end
    // their attribute: kept as written.
    html`<meta http-equiv="Content-Security-Policy" content="${raw(contentSecurityPolicy(!!options.scripts?.length, look))}">`,
    html`<meta name="referrer" content="strict-origin-when-cross-origin">`,
    html`<meta name="color-scheme" content="light dark">`,
    html`<title>${documentTitle(title, options.titleSuffix)}</title>`,
    html`<meta name="description" content="${description}">`,
    canonical ? html`<link rel="canonical" href="${canonical}">` : null,
    ...(locale.alternates ?? []).map(
      (alternate) => html`<link rel="alternate" hreflang="${alternate.language}" href="${alternate.href}">`,
    ),
    locale.alternates?.[0]
      ? html`<link rel="alternate" hreflang="x-default" href="${locale.alternates[0].href}">`
      : null,
    html`<link rel="icon" href="${raw(FAVICON)}" type="image/svg+xml">`,
    ...(fullSite ? feedLinks(siteName, root) : []),
    html`<meta property="og:site_name" content="${siteName}">`,
    html`<meta property="og:type" content="${ogType ?? 'website'}">`,
    html`<meta property="og:title" content="${title}">`,
    html`<meta property="og:description" content="${description}">`,
    canonical ? html`<meta property="og:url" content="${canonical}">` : null,
    ogImage ? html`<meta property="og:image" content="${ogImage}">` : null,
    html`<meta name="twitter:card" content="${ogImage ? 'summary_large_image' : 'summary'}">`,
    // X/Twitter reads title, description and image from the Open Graph tags; only the card type is its own.
    html`<style>${raw(siteStyle(look))}</style>`,
    ...(options.scripts ?? []).map((src) => html`<script src="${root}${src}" defer></script>`),
  ].filter((line): line is Fragment => line !== null);
  const nav = fullSite
    ? html`<a href="${root}search/index.html">Search</a><a href="${root}feed.xml">RSS</a>`
    : null;
  return html`<!DOCTYPE html>
<html lang="${locale.language ?? 'en'}">
<head>
${join(meta, '\n')}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div class="wrap">
<header class="site">
${siteNameLink(siteName, root, look)}
<nav aria-label="Site"><a href="${root}index.html#archive">Archive</a>${nav}</nav>
</header>
<main id="main">
${options.body}
</main>
${subscribeSection({ mode: options.site.subscribe, siteName, root: siteRoot(root, locale.section), languages: locale.languages })}
${fullSite ? siteFooter(siteName, root) : null}
</div>
</body>
</html>
`.toString();
}

/** Browsers, tabs and search results cut long titles; html-validate's long-title rule holds us to 70. */
export const MAX_TITLE = 70;

export function documentTitle(title: string, suffix?: string): string {
  // Measured as written in the file (entities included), which is what the validator counts.
  const fits = (text: string) => markupLength(text) <= MAX_TITLE;
  const full = suffix ? `${title} — ${suffix}` : title;
  if (fits(full)) return full;
  if (fits(title)) return title;
  const characters = Array.from(title);
  while (characters.length > 1 && !fits(`${characters.join('')}…`)) characters.pop();
  return `${characters.join('').trimEnd()}…`;
}

/** The site's name, after the logo when one is set: the logo's text is the name, so it is read out once. */
function siteNameLink(siteName: string, root: string, look: SiteLook | undefined): Fragment {
  const logo = siteLogo(look);
  if (!logo) return html`<a class="site-name" href="${root}index.html">${siteName}</a>`;
  return html`<a class="site-name" href="${root}index.html"><img class="logo" src="${logo}" alt="${siteName}" height="32"><span aria-hidden="true">${siteName}</span></a>`;
}

function feedLinks(siteName: string, root: string): Fragment[] {
  return [
    html`<link rel="alternate" type="application/rss+xml" title="${siteName} (RSS)" href="${root}feed.xml">`,
    html`<link rel="alternate" type="application/atom+xml" title="${siteName} (Atom)" href="${root}atom.xml">`,
    html`<link rel="alternate" type="application/feed+json" title="${siteName} (JSON Feed)" href="${root}feed.json">`,
  ];
}

function siteFooter(siteName: string, root: string): Fragment {
  return html`<footer class="site-footer"><p>${siteName} · feeds: <a href="${root}feed.xml">RSS</a> · \
<a href="${root}atom.xml">Atom</a> · <a href="${root}feed.json">JSON Feed</a></p></footer>
`;
}

/**
 * The subscribe form: written in (true, or `{ clicks }` to say how clicks are counted), left out (false), or a slot
 * `digest serve` fills ('slot').
 */
export type SubscribeMode = boolean | 'slot' | WrittenForm;

/** The form written into the page at publish time, telling readers how their clicks are counted. */
export interface WrittenForm {
  clicks: AnalyticsMode;
  /** analytics.site: the pages' links are counted too. */
  clicksOnSite?: boolean | undefined;
}

/** Where `digest serve` puts the subscribe form in a published page; the page's root travels with it. */
export const SUBSCRIBE_SLOT = /<!--digest:subscribe root="([^"<>]*)"-->/;

/** From the page to the site root, where `digest serve` answers /subscribe: past the language section's folder. */
function siteRoot(root: string, section: string | undefined): string {
  const depth = section ? section.split('/').filter(Boolean).length : 0;
  return root + '../'.repeat(depth);
}

function subscribeSection({
  mode,
  siteName,
  root,
  languages,
}: {
  mode: SubscribeMode | undefined;
  siteName: string;
  root: string;
  languages: readonly string[] | undefined;
}): Fragment | null {
  if (mode === 'slot') return html`<!--digest:subscribe root="${root}"-->`;
  if (typeof mode === 'object') return subscribeForm(siteName, root, { languages, ...mode });
  return mode ? subscribeForm(siteName, root, { languages }) : null;
}

export interface SubscribeFormOptions {
  /** Configured languages: with several, the form offers the reader a choice of them. */
  languages?: readonly string[] | undefined;
  /** Counted links (analytics mode): what the form says about clicks; unset or "off": nothing. */
  clicks?: AnalyticsMode | undefined;
  /** analytics.site: clicks on the site's pages are counted too, and the sentence says so. */
  clicksOnSite?: boolean | undefined;
}

/**
 * The one sentence readers are told about counted clicks in this mode (docs/analytics.md), or null ("off"). With
 * analytics.site the pages' links are counted too, never per reader (they carry no reader).
 */
export function clickNote(mode: AnalyticsMode | undefined, onSite = false): string | null {
  if (mode === 'per-reader') {
    const site = onSite ? ', those on this site without naming anyone' : '';
    return `Clicks on links in the mail are counted per reader${site}; you can turn that off on your preferences page.`;
  }
  if (mode === 'aggregate') {
    const where = onSite ? 'in the mail and on this site' : 'in the mail';
    return `Clicks on links ${where} are counted without naming anyone.`;
  }
  return null;
}

/**
 * Plain HTML, no script: it works wherever the page does. The "website" field is a honeypot: hidden from sight and
 * from assistive technology and out of the tab order, so only a bot that fills every field fills it.
 */
export function subscribeForm(siteName: string, root: string, options: SubscribeFormOptions = {}): Fragment {
  const note = clickNote(options.clicks, options.clicksOnSite);
  return html`<section class="subscribe" aria-labelledby="subscribe-title">
<h2 id="subscribe-title">Get ${siteName} by email</h2>
<p>One mail a week. Confirm from your inbox; every mail has a one-click unsubscribe link.</p>${note ? html`\n<p class="click-note">${note}</p>` : null}
<form class="search-form" method="post" action="${root}subscribe">
<label class="visually-hidden" for="subscribe-email">Email address</label>
<input id="subscribe-email" type="email" name="email" required maxlength="254" autocomplete="email" placeholder="you@example.com">
<div class="visually-hidden" aria-hidden="true"><label for="subscribe-website">Leave this field empty</label>\
<input id="subscribe-website" type="text" name="website" tabindex="-1" autocomplete="off"></div>
<button type="submit">Subscribe</button>
<details class="choices"><summary>Choose your edition (optional)</summary>
${preferenceFields({ languages: options.languages ?? [], idPrefix: 'subscribe' })}
</details>
</form>
</section>
`;
}
