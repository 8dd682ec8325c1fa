// `digest add <url|arXiv id>`: an arXiv id or an arXiv/HF-papers URL gets its arXiv metadata; any other
// http(s) URL gets its page's metadata (fetched untrusted). The caller pins the item into its week.
import { systemClock } from '../core/clock.js';
import { editionWindow, inWindow } from '../core/dates.js';
import { SourceError } from '../core/errors.js';
import { arxivIdFromUrl, normaliseArxivId } from '../core/ids.js';
import type { HttpClient } from '../core/ports.js';
import type { SourceItem } from '../core/types.js';
import { httpUrl } from '../core/urls.js';
import { fetchArxivEntries } from './arxiv-api.js';
import { fetchPageMetadata } from './page.js';

export interface ManualOptions {
  http: HttpClient;
  /** Edition date (YYYY-MM-DD) the item is pinned into. */
  week: string;
  arxivApiUrl?: string;
  now?: Date;
}

export async function fetchManualItem(input: string, options: ManualOptions): Promise<SourceItem> {
  const value = input.trim();
  const url = httpUrl(value);
  const arxivId = normaliseArxivId(value) ?? (url ? arxivIdFromUrl(url) : null);
  if (arxivId) return arxivItem(arxivId, options);
  if (!url) {
    throw new SourceError(
      `"${value}" is neither an arXiv id (e.g. 2604.24819) nor an http(s) URL; give one of those`,
      'manual',
    );
  }
  const page = await fetchPageMetadata(url, { http: options.http });
  return {
    sourceId: 'manual',
    url: page.url,
    title: page.title,
    text: page.text || page.description,
    authors: [],
    arxivId: arxivIdFromUrl(page.url),
    image: page.image,
    publishedAt: page.publishedAt ?? stamp(options),
    upvotes: null,
  };
}

async function arxivItem(arxivId: string, options: ManualOptions): Promise<SourceItem> {
  const { entries, warnings } = await fetchArxivEntries([arxivId], {
    http: options.http,
    ...(options.arxivApiUrl ? { baseUrl: options.arxivApiUrl } : {}),
  });
  const entry = entries.find((candidate) => candidate.arxivId === arxivId);
  if (!entry) {
    // "Check the id" only when arXiv answered without it; a failed request says why it failed.
    const answered = warnings.every((warning) => !warning.includes('request for'));
    throw new SourceError(
      `could not read arXiv ${arxivId}: ${warnings.join('; ') || 'no entry returned'}` +
        (answered ? '; check the id' : '; check the network, or add a paper that is already stored'),
      'manual',
    );
  }
  return {
    sourceId: 'manual',
    url: entry.absUrl,
    title: entry.title,
    text: entry.abstract,
    authors: entry.authors,
    arxivId,
    image: null,
    publishedAt: stamp(options),
    upvotes: null,
  };
}

/** Now, when now falls in the edition's window; else the edition date, so the item lands in its week. */
function stamp(options: ManualOptions): string {
  const now = (options.now ?? systemClock.now()).toISOString();
  return inWindow(now, editionWindow(options.week)) ? now : `${options.week}T00:00:00.000Z`;
}
