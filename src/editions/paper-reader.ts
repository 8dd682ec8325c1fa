// Papers read in full for a build or an eval (enrich/full-text.ts). Fetching is part of network enrichment: with
// --offline, --no-enrich or `enrich.enabled: false` only the texts stored by earlier builds are read.
import type { PaperText } from '../core/types.js';
import type { FullTextResult } from '../enrich/full-text.js';
import type { PaperDeps } from './ports.js';

export type PaperReader = (arxivIds: string[]) => Promise<FullTextResult>;

export function paperReader(deps: PaperDeps, input: { offline: boolean; enrich: boolean }): PaperReader {
  const { config, http, store, log, clock } = deps;
  const offline = input.offline || !input.enrich || !config.enrich.enabled;
  return async (arxivIds) => {
    const { readFullTexts } = await import('../enrich/full-text.js');
    return readFullTexts(arxivIds, {
      http,
      store,
      offline,
      arxiv: { baseUrl: config.enrich.arxivHtmlUrl, refreshAgeHours: config.enrich.refreshAgeHours },
      now: () => clock.now(),
      log,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  };
}

/** The papers of `result` that were read, by arXiv id. */
export function readPapers(result: FullTextResult): Map<string, PaperText> {
  const papers = new Map<string, PaperText>();
  for (const [id, record] of result.papers)
    if (record.status === 'read' && record.paper) papers.set(id, record.paper);
  return papers;
}
