// The source registry: one factory per configured kind. Every source returned here reports failures in its
// result and never throws out of fetch(), so one dead feed cannot stop a run.
import type { SourceConfig } from '../config/config-schema.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { Source } from '../core/ports.js';
import { feedSource } from './feed.js';
import { hfDailyPapersSource } from './hf-daily-papers.js';
import { hfDailyPapersRssSource } from './hf-daily-papers-rss.js';

export type SourceKind = SourceConfig['type'];
export type SourceFactory = (config: SourceConfig) => Source;

const withUrl =
  (create: (options: { id: string; url: string }) => Source): SourceFactory =>
  (config) => {
    if (!config.url) {
      throw new ConfigError(`source "${config.id}" (${config.type}) needs a url`, [
        { path: `sources.${config.id}.url`, message: 'required' },
      ]);
    }
    return create({ id: config.id, url: config.url });
  };

/** Manual items are added with `digest add`; the source itself fetches nothing. */
const manualSource: SourceFactory = (config) => ({
  id: config.id,
  kind: 'manual',
  fetch: async () => ({ items: [], warnings: [] }),
});

export const SOURCE_FACTORIES = {
  'hf-daily-papers': withUrl(hfDailyPapersSource),
  'hf-daily-papers-rss': withUrl(hfDailyPapersRssSource),
  feed: withUrl(feedSource),
  manual: manualSource,
} satisfies Record<SourceKind, SourceFactory>;

export function createSource(config: SourceConfig): Source {
  return neverThrows(SOURCE_FACTORIES[config.type](config));
}

function neverThrows(source: Source): Source {
  return {
    ...source,
    async fetch(context) {
      try {
        return await source.fetch(context);
      } catch (error) {
        return { items: [], warnings: [], error: errorMessage(error) };
      }
    },
  };
}
