// One web page's metadata for a manual item: og:/twitter: meta, canonical link, readable text (Readability on
// linkedom). The URL is untrusted: the client refuses non-public addresses on every hop.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { FetchError } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { collapse } from '../core/text.js';
import { displayUrl, httpUrl } from '../core/urls.js';
import { decodeFeedBytes } from './_decode.js';
import { parseFeedDate } from './_feed-dates.js';
import { htmlToText } from './_html-text.js';

export interface PageMetadata {
  url: string;
  title: string;
  description: string;
  image: string | null;
  text: string;
  siteName: string | null;
  publishedAt: string | null;
}

const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/i;

export async function fetchPageMetadata(
  url: string,
  options: { http: HttpClient; signal?: AbortSignal },
): Promise<PageMetadata> {
  const response = await options.http.request({
    url,
    trusted: false,
    headers: { accept: 'text/html, application/xhtml+xml;q=0.9' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const type = response.headers['content-type'] ?? '';
  if (type && !HTML_TYPES.test(type)) {
    throw new FetchError(
      `${displayUrl(response.url)} is not an HTML page (${type}); give the page's address instead`,
      { url },
    );
  }
  const metaCharset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(
    response.body.subarray(0, 4096).toString('latin1'),
  )?.[1];
  const contentType = /charset=/i.test(type) || !metaCharset ? type : `text/html; charset=${metaCharset}`;
  return readPage(decodeFeedBytes(response.body, contentType).text, response.url);
}

/** Metadata of an HTML document fetched from `pageUrl` (its final URL after redirects). */
export function readPage(html: string, pageUrl: string): PageMetadata {
  const { document } = parseHTML(html);
  const meta = (...keys: string[]): string | null => {
    for (const key of keys) {
      const element = document.querySelector(`meta[property="${key}" i], meta[name="${key}" i]`);
      const content = collapse(element?.getAttribute('content') ?? '');
      if (content) return content;
    }
    return null;
  };
  // A page may name its canonical address on its own site only: it must not claim another site's item.
  const canonical = httpUrl(
    document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'),
    pageUrl,
  );
  const base = canonical && site(canonical) === site(pageUrl) ? canonical : pageUrl;
  const image = httpUrl(
    meta('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
    base,
  );
  const published =
    meta(
      'article:published_time',
      'og:published_time',
      'datePublished',
      'date',
      'dc.date',
      'dcterms.created',
    ) ??
    document.querySelector('time[datetime]')?.getAttribute('datetime') ??
    null;
  const title =
    meta('og:title', 'twitter:title') ?? collapse(document.querySelector('title')?.textContent ?? '') ?? '';
  const description = meta('og:description', 'twitter:description', 'description') ?? '';
  const siteName = meta('og:site_name', 'application-name');
  // Readability rewrites the document it reads, so it runs last.
  const article = readable(document);
  const text =
    collapse(article?.textContent ?? '') || htmlToText(document.body?.innerHTML ?? '') || description;
  return {
    url: base,
    title: title || collapse(article?.title ?? '') || new URL(base).hostname,
    description,
    image,
    text,
    siteName,
    publishedAt: parseFeedDate(published),
  };
}

function site(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

function readable(
  document: Document,
): { title?: string | null | undefined; textContent?: string | null | undefined } | null {
  try {
    return new Readability(document, { charThreshold: 200 }).parse();
  } catch {
    return null;
  }
}
