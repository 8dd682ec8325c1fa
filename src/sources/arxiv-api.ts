// arXiv API metadata for known ids: batched id_list queries (≤ 100 ids each) against export.arxiv.org.
// parseArxivAtom reads both serialisations the API has used (pre-2026 and 2026+); both are Atom to feedsmith.
import { type AtomFeed, parseAtomFeed } from 'feedsmith';
import { errorMessage } from '../core/errors.js';
import { arxivIdFromUrl, normaliseArxivId } from '../core/ids.js';
import type { HttpClient } from '../core/ports.js';
import { collapse } from '../core/text.js';
import { sleep } from '../net/sleep.js';
import { parseFeedDate } from './_feed-dates.js';

export const ARXIV_API_URL = 'http://export.arxiv.org/api/query';

export interface ArxivEntry {
  arxivId: string;
  title: string;
  abstract: string;
  authors: string[];
  categories: string[];
  /** ISO 8601 UTC */
  published: string;
  updated: string;
  pdfUrl: string;
  absUrl: string;
  /** The latest version, from the entry's id (…/abs/2310.06825v2); absent in entries cached before it was read. */
  version?: number;
}

export interface ArxivFetchOptions {
  http: HttpClient;
  baseUrl?: string;
  batchSize?: number;
  /** The API endpoint is configuration, so it is trusted unless told otherwise. */
  trusted?: boolean;
  /** Pause between batches; arXiv asks for one request every 3 s. */
  pauseMs?: number;
  signal?: AbortSignal;
}

export async function fetchArxivEntries(
  ids: string[],
  options: ArxivFetchOptions,
): Promise<{ entries: ArxivEntry[]; warnings: string[] }> {
  const wanted = [
    ...new Set(ids.map((id) => normaliseArxivId(id)).filter((id): id is string => id !== null)),
  ];
  const invalid = ids.filter((id) => normaliseArxivId(id) === null);
  const warnings = invalid.length ? [`not arXiv ids, skipped: ${invalid.join(', ')}`] : [];
  const batchSize = Math.min(Math.max(options.batchSize ?? 100, 1), 100);
  const entries: ArxivEntry[] = [];
  for (let start = 0; start < wanted.length; start += batchSize) {
    if (start > 0) await sleep(options.pauseMs ?? 3000, options.signal);
    const batch = wanted.slice(start, start + batchSize);
    const url = new URL(options.baseUrl ?? ARXIV_API_URL);
    url.searchParams.set('id_list', batch.join(','));
    url.searchParams.set('max_results', String(batch.length));
    try {
      const response = await options.http.request({
        url: url.href,
        trusted: options.trusted ?? true,
        headers: { accept: 'application/atom+xml' },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const parsed = parseArxivAtom(response.body.toString('utf8'));
      entries.push(...parsed.entries);
      warnings.push(...parsed.errors);
      const found = new Set(parsed.entries.map((entry) => entry.arxivId));
      const missing = batch.filter((id) => !found.has(id));
      if (missing.length) warnings.push(`arXiv has no entry for: ${missing.join(', ')}`);
    } catch (error) {
      warnings.push(`arXiv API request for ${batch.length} ids failed: ${errorMessage(error)}`);
    }
  }
  return { entries, warnings };
}

/** Entries of an arXiv API Atom answer; the API's error entries come back as messages. */
export function parseArxivAtom(xml: string): { entries: ArxivEntry[]; errors: string[] } {
  const feed = parseAtomFeed(xml);
  const entries: ArxivEntry[] = [];
  const errors: string[] = [];
  for (const entry of feed.entries ?? []) {
    if (/\/api\/errors/.test(entry.id ?? '')) {
      errors.push(`arXiv API error: ${collapse(entry.summary?.value ?? entry.title?.value ?? 'unknown')}`);
      continue;
    }
    const parsed = toEntry(entry);
    if (parsed) entries.push(parsed);
  }
  return { entries, errors };
}

function toEntry(entry: AtomFeed.Entry<string>): ArxivEntry | null {
  const arxivId = arxivIdFromUrl(entry.id ?? '');
  if (!arxivId) return null;
  const published = parseFeedDate(entry.published) ?? parseFeedDate(entry.updated) ?? '';
  const version = /v(\d+)$/.exec(entry.id ?? '')?.[1];
  const pdf = entry.links?.find((link) => link.type === 'application/pdf' || link.title === 'pdf')?.href;
  return {
    arxivId,
    title: collapse(entry.title?.value ?? ''),
    abstract: collapse(entry.summary?.value ?? ''),
    authors: (entry.authors ?? []).map((author) => collapse(author.name ?? '')).filter(Boolean),
    categories: [...new Set((entry.categories ?? []).map((category) => category.term ?? '').filter(Boolean))],
    published,
    updated: parseFeedDate(entry.updated) ?? published,
    pdfUrl: pdf ? pdf.replace(/^http:/, 'https:') : `https://arxiv.org/pdf/${arxivId}`,
    absUrl: `https://arxiv.org/abs/${arxivId}`,
    ...(version ? { version: Number(version) } : {}),
  };
}
