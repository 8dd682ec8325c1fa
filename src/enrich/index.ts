// Enrichment: fills what sources left out — arXiv metadata, citation counts, page text and images, HF
// thumbnails — and writes it back to the store. Every service is optional: a failure is a warning, never a
// failed edition, and what was ingested stays as it was.
import { errorMessage } from '../core/errors.js';
import type { HttpClient, Logger, StageStore } from '../core/ports.js';
import type { StoredItem } from '../core/types.js';
import { ttlSeconds } from './_cache.js';
import { arxivMetadata } from './arxiv-metadata.js';
import { citationCounts } from './citations.js';
import { pageDetails } from './page-details.js';
import { type ItemPatch, patchFromArxiv, patchFromPage, patchThumbnail } from './patches.js';

export interface EnrichConfig {
  arxivApiUrl?: string;
  semanticScholarUrl?: string;
  /** Defaults to env SEMANTIC_SCHOLAR_API_KEY, read when called. */
  semanticScholarApiKey?: string;
  /** Cached results older than this are fetched again (default 72 h). */
  refreshAgeHours?: number;
  /** Pause between arXiv API batches in ms (default 3000, as arXiv asks). */
  arxivPauseMs?: number;
}

export interface EnrichContext {
  http: HttpClient;
  store: Pick<StageStore, 'cache' | 'items'>;
  log: Logger;
  config: EnrichConfig;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface EnrichResult {
  items: StoredItem[];
  warnings: string[];
}

export async function enrichItems(items: StoredItem[], context: EnrichContext): Promise<EnrichResult> {
  const { http, store, log, config } = context;
  const ttl = ttlSeconds(config.refreshAgeHours);
  const apiKey = config.semanticScholarApiKey ?? context.env.SEMANTIC_SCHOLAR_API_KEY;
  const signal = context.signal ? { signal: context.signal } : {};

  // Pages first: a post may name the paper it covers, and that paper's metadata is wanted too.
  const pages = await pageDetails(items, { http, cache: store.cache, ttlSeconds: ttl, ...signal });
  // A paper id found on a post's page is used for this build (selection merges the post into the paper);
  // the store keeps the post under its own key.
  const linked = items.map((item) => item.arxivId ?? pages.pages.get(item.key)?.arxivId ?? null);
  const arxivIds = linked.filter((id): id is string => id !== null);

  const [arxiv, citations] = await Promise.all([
    arxivMetadata(arxivIds, {
      http,
      cache: store.cache,
      ttlSeconds: ttl,
      ...(config.arxivApiUrl ? { baseUrl: config.arxivApiUrl } : {}),
      ...(config.arxivPauseMs !== undefined ? { pauseMs: config.arxivPauseMs } : {}),
      ...signal,
    }),
    citationCounts(arxivIds, {
      http,
      cache: store.cache,
      ttlSeconds: ttl,
      ...(config.semanticScholarUrl ? { baseUrl: config.semanticScholarUrl } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...signal,
    }),
  ]);
  const warnings = [...pages.warnings, ...arxiv.warnings, ...citations.warnings];

  const enriched: StoredItem[] = [];
  const patched: [string, ItemPatch][] = [];
  let updated = 0;
  items.forEach((item, index) => {
    const arxivId = linked[index] ?? null;
    const page = pages.pages.get(item.key);
    const patch: ItemPatch = page ? patchFromPage(item, page) : {};
    const entry = arxivId ? arxiv.entries.get(arxivId) : undefined;
    if (entry) Object.assign(patch, patchFromArxiv({ ...item, ...patch }, entry));
    const count = arxivId ? citations.counts.get(arxivId) : undefined;
    if (count !== undefined && count !== null && count !== item.citations) patch.citations = count;
    Object.assign(patch, patchThumbnail({ ...item, ...patch }));
    const next = { ...item, ...patch, arxivId };
    enriched.push(next);
    if (Object.keys(patch).length > 0) patched.push([item.key, patch]);
  });
  for (const [key, patch] of patched) {
    try {
      await store.items.update(key, patch);
      updated++;
    } catch (error) {
      warnings.push(`enrich: could not save ${key} (${errorMessage(error)}); used for this build only`);
    }
  }
  log.debug(`enrich: ${updated} item(s) updated, ${warnings.length} warning(s)`);
  // The caller reports the warnings (the build prints them once, at the end).
  for (const warning of warnings) log.debug(warning);
  return { items: enriched, warnings };
}
