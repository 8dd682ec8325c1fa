// Full text for papers: the HTML rendering arXiv serves at `<arxivHtmlUrl><id>v<N>`, read once per version and
// kept in the store (paper_texts). Only the edition's picks are read, one request at a time and at most one every
// 3 s to a host, through the one HTTP client (its size cap, timeout and User-Agent). A stored text is reused until
// the arXiv metadata names a newer version; "no HTML rendering" (404, or a page without sections) is stored too and
// asked again only after the refresh age. A network failure stores nothing: that build writes from the abstract.
// Offline, only what is stored is read.
import { errorMessage, FetchError } from '../core/errors.js';
import type { HttpClient, Logger, PaperRecord, StageStore } from '../core/ports.js';
import { createHostPacer, type HostPacer } from '../net/host-pacer.js';
import type { ArxivEntry } from '../sources/arxiv-api.js';
import { ARXIV_CACHE_NAMESPACE, cachedMany, DEFAULT_REFRESH_AGE_HOURS } from './_cache.js';

export const DEFAULT_ARXIV_HTML_URL = 'https://arxiv.org/html/';
/** arXiv asks robots for one request every 3 s. */
export const ARXIV_INTERVAL_MS = 3_000;
/** A paper page with its MathML can reach a few MB (BloombergGPT on ar5iv: 1.3 MB). */
const PAGE_MAX_BYTES = 12 * 1024 * 1024;
const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/i;

export interface FullTextOptions {
  http: HttpClient;
  store: Pick<StageStore, 'paperTexts' | 'cache'>;
  /** Read only what is stored (`--offline`, `--no-enrich`). */
  offline: boolean;
  /** Where arXiv's HTML renderings are and how long an answer holds (config `enrich`); defaults without. */
  arxiv?: ArxivHtmlSettings;
  /** Shared by the run, so every request to a host is spaced; one every 3 s by default. */
  pacer?: HostPacer;
  now: () => Date;
  log?: Logger;
  signal?: AbortSignal;
}

export interface ArxivHtmlSettings {
  /** `enrich.arxivHtmlUrl` (trusted: it is configuration). */
  baseUrl?: string;
  /** "No HTML rendering" is asked again after this long (`enrich.refreshAgeHours`). */
  refreshAgeHours?: number;
}

export interface FullTextResult {
  /** By arXiv id: the paper as read (status read), or the record that there is none (status none). */
  papers: Map<string, PaperRecord>;
  /** Why an id has no text this build, for those without a record (offline, network error). */
  missing: Map<string, string>;
  /** Requests sent this run (0 on a rebuild). */
  fetched: number;
  warnings: string[];
}

export async function readFullTexts(arxivIds: string[], options: FullTextOptions): Promise<FullTextResult> {
  const ids = [...new Set(arxivIds)];
  const stored = await options.store.paperTexts.latest(ids).catch(() => new Map<string, PaperRecord>());
  const result: FullTextResult = { papers: new Map(), missing: new Map(), fetched: 0, warnings: [] };
  const pacer = options.pacer ?? createHostPacer(ARXIV_INTERVAL_MS);
  const failures: string[] = [];
  // The latest version of each, as the metadata step cached it: read at once, not one query a paper.
  const metadata = await cachedMany<ArxivEntry>(options.store.cache, ARXIV_CACHE_NAMESPACE, ids);
  for (const id of ids) {
    const record = stored.get(id);
    const latest = metadata.get(id)?.version ?? null;
    if (record && isCurrent(record, latest, options)) {
      result.papers.set(id, record);
      continue;
    }
    if (options.offline) {
      if (record) result.papers.set(id, record);
      else
        result.missing.set(
          id,
          'not read in full: fetching is off (--offline, --no-enrich or enrich.enabled: false) and no earlier build read it',
        );
      continue;
    }
    options.signal?.throwIfAborted();
    try {
      const fresh = await fetchPaper({ id, version: latest, pacer, options });
      result.fetched += 1;
      result.papers.set(id, fresh);
      await options.store.paperTexts.save(fresh).catch((error: unknown) => {
        result.warnings.push(
          `full text: could not store ${id} (${errorMessage(error)}); used for this build only`,
        );
      });
    } catch (error) {
      result.fetched += 1;
      if (options.signal?.aborted) throw error;
      if (record) result.papers.set(id, record);
      else result.missing.set(id, `not read in full: ${errorMessage(error)}`);
      failures.push(`${id}: ${errorMessage(error)}`);
    }
  }
  if (failures.length) {
    result.warnings.push(
      `full text: ${failures.length} paper(s) could not be read (first: ${failures[0]}); written from the abstract`,
    );
  }
  options.log?.debug(`full text: ${result.fetched} request(s), ${result.papers.size} paper(s) known`);
  return result;
}

function isCurrent(record: PaperRecord, latest: number | null, options: FullTextOptions): boolean {
  if (latest !== null && record.version !== null && record.version < latest) return false;
  if (record.status === 'read') return true;
  const ageHours = (options.now().getTime() - Date.parse(record.fetchedAt)) / 3_600_000;
  return ageHours < (options.arxiv?.refreshAgeHours ?? DEFAULT_REFRESH_AGE_HOURS);
}

function base(options: Pick<FullTextOptions, 'arxiv'>): string {
  return options.arxiv?.baseUrl ?? DEFAULT_ARXIV_HTML_URL;
}

export function paperPageUrl(baseUrl: string, id: string, version: number | null): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return `${base}${id}${version ? `v${version}` : ''}`;
}

async function fetchPaper({
  id,
  version,
  pacer,
  options,
}: {
  id: string;
  version: number | null;
  pacer: HostPacer;
  options: FullTextOptions;
}): Promise<PaperRecord> {
  const url = paperPageUrl(base(options), id, version);
  const fetchedAt = options.now().toISOString();
  const none = (note: string) => ({
    arxivId: id,
    version,
    status: 'none' as const,
    url,
    note,
    paper: null,
    fetchedAt,
  });
  await pacer.wait(url, options.signal);
  let response: Awaited<ReturnType<HttpClient['request']>>;
  try {
    response = await options.http.request({
      url,
      trusted: true,
      maxBytes: PAGE_MAX_BYTES,
      headers: { accept: 'text/html, application/xhtml+xml;q=0.9' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof FetchError && (error.status === 404 || error.status === 410)) {
      return none('arXiv has no HTML rendering of this paper');
    }
    throw error;
  }
  const type = response.headers['content-type'] ?? '';
  if (type && !HTML_TYPES.test(type)) return none(`arXiv answered ${type}, not an HTML rendering`);
  // The HTML parser loads with the first paper fetched: reading stored texts (offline, a rebuild) needs none.
  const { parsePaperHtml } = await import('./paper-html.js');
  const paper = parsePaperHtml(response.body.toString('utf8'), { arxivId: id, url: response.url });
  if (!paper) return none('the HTML rendering has no sections (or nests deeper than any paper)');
  // The version asked for is the one read; without one, the version the page states (its links then name it).
  const read = version ?? paper.version;
  const pageUrl =
    version === null && read !== null && url === paper.url
      ? paperPageUrl(base(options), id, read)
      : paper.url;
  return {
    arxivId: id,
    version: read,
    status: 'read',
    url: pageUrl,
    note: null,
    paper: { ...paper, version: read, url: pageUrl },
    fetchedAt,
  };
}
