// The document shell every site page shares: head metadata, the security policy and the header/footer.
import { createHash } from 'node:crypto';
import { escapeHtml } from './_html.js';
import { SITE_CSS } from './_styles.js';

/** A "D" on a blue tile: inline in every page (no extra request), also written as favicon.svg for feeds. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57b0"/>' +
  '<path d="M9 8h7a8 8 0 0 1 0 16H9z" fill="#fff"/></svg>';

export const FAVICON = `data:image/svg+xml,${FAVICON_SVG.replace(/"/g, "'").replace(/[<>#]/g, encodeURIComponent)}`;

let styleHash: string | undefined;

/** `'sha256-…'` of the stylesheet: the policy allows exactly this <style> element and nothing else inline. */
export function styleSourceHash(): string {
  styleHash ??= `'sha256-${createHash('sha256').update(SITE_CSS).digest('base64')}'`;
  return styleHash;
}

/**
 * No script runs on content pages: `default-src 'none'` with no script-src. The style is allowed by hash rather than
 * 'unsafe-inline', so even an injected style attribute or <style> would be inert. Pages that run the search script
 * pass `scripts: true`, which allows same-origin script and fetch only.
 */
export function contentSecurityPolicy(scripts = false): string {
  const parts = [
    "default-src 'none'",
    'img-src https: data:',
    `style-src ${styleSourceHash()}`,
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
  siteName: string;
  /** Relative path from the page to the site root: "" or "../". */
  root: string;
  /** Absolute URL of this page when the site's base URL is known. */
  canonical: string | null;
  ogType?: 'website' | 'article';
  ogImage?: string | null;
  body: string;
  /** External scripts (site-relative paths), for the search page only. */
  scripts?: string[];
  /** Whether the site around the page has feeds and search (publishSite) or just pages (a build). */
  fullSite?: boolean;
}

export function renderPage(options: PageOptions): string {
  const { title, description, siteName, canonical, ogImage } = options;
  const root = escapeHtml(options.root);
  const meta = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(!!options.scripts?.length)}">`,
    '<meta name="referrer" content="strict-origin-when-cross-origin">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(documentTitle(title, options.titleSuffix))}</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : '',
    `<link rel="icon" href="${FAVICON}" type="image/svg+xml">`,
    ...(options.fullSite ? feedLinks(siteName, root) : []),
    `<meta property="og:site_name" content="${escapeHtml(siteName)}">`,
    `<meta property="og:type" content="${options.ogType ?? 'website'}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    canonical ? `<meta property="og:url" content="${escapeHtml(canonical)}">` : '',
    ogImage ? `<meta property="og:image" content="${escapeHtml(ogImage)}">` : '',
    `<meta name="twitter:card" content="${ogImage ? 'summary_large_image' : 'summary'}">`,
    // X/Twitter reads title, description and image from the Open Graph tags; only the card type is its own.
    `<style>${SITE_CSS}</style>`,
    ...(options.scripts ?? []).map((src) => `<script src="${root}${escapeHtml(src)}" defer></script>`),
  ].filter(Boolean);
  return `<!DOCTYPE html>
<html lang="en">
<head>
${meta.join('\n')}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div class="wrap">
<header class="site">
<a class="site-name" href="${root}index.html">${escapeHtml(siteName)}</a>
<nav aria-label="Site"><a href="${root}index.html#archive">Archive</a>${options.fullSite ? `<a href="${root}search/index.html">Search</a><a href="${root}feed.xml">RSS</a>` : ''}</nav>
</header>
<main id="main">
${options.body}
</main>
${options.fullSite ? siteFooter(siteName, root) : ''}
</div>
</body>
</html>
`;
}

/** Browsers, tabs and search results cut long titles; html-validate's long-title rule holds us to 70. */
export const MAX_TITLE = 70;

export function documentTitle(title: string, suffix?: string): string {
  // Measured as written in the file (entities included), which is what the validator counts.
  const fits = (text: string) => escapeHtml(text).length <= MAX_TITLE;
  const full = suffix ? `${title} — ${suffix}` : title;
  if (fits(full)) return full;
  if (fits(title)) return title;
  const characters = Array.from(title);
  while (characters.length > 1 && !fits(`${characters.join('')}…`)) characters.pop();
  return `${characters.join('').trimEnd()}…`;
}

function feedLinks(siteName: string, root: string): string[] {
  const name = escapeHtml(siteName);
  return [
    `<link rel="alternate" type="application/rss+xml" title="${name} (RSS)" href="${root}feed.xml">`,
    `<link rel="alternate" type="application/atom+xml" title="${name} (Atom)" href="${root}atom.xml">`,
    `<link rel="alternate" type="application/feed+json" title="${name} (JSON Feed)" href="${root}feed.json">`,
  ];
}

function siteFooter(siteName: string, root: string): string {
  return `<footer class="site-footer"><p>${escapeHtml(siteName)} · feeds: <a href="${root}feed.xml">RSS</a> · \
<a href="${root}atom.xml">Atom</a> · <a href="${root}feed.json">JSON Feed</a></p></footer>
`;
}
